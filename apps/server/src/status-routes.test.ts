import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.close());

async function restrictedWorkspace() {
  const other = await startTestServer({}, s.database);
  await s.database.db.$client.execute({ sql: "update workspace set limits = null where id = ?", args: [other.workspaceId] });
  return other;
}

describe("status pages over the REST API", () => {
  it("a page's default language is set and changed over the API; an unknown one is refused naming the field", async () => {
    const page = await s.call("POST", "/v1/status-pages", { slug: "sprachen", title: "Sprachen", language: "de" });
    expect(page.status).toBe(201);
    expect(page.body.language).toBe("de");
    const bad = await s.call("PATCH", `/v1/status-pages/${page.body.id}`, { language: "klingon" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues).toEqual([{ path: "language", message: "must be one of en, de, fr, es, pt-BR, ja, zh-CN" }]);
    expect((await s.call("GET", `/v1/status-pages/${page.body.id}`)).body.language).toBe("de");
    expect((await s.call("PATCH", `/v1/status-pages/${page.body.id}`, { language: "pt-BR" })).body.language).toBe("pt-BR");
    expect((await s.call("POST", "/v1/status-pages", { slug: "plain-lang", title: "Plain" })).body.language).toBe("en");
  });

  it("a page with groups and components is created, read, changed, ordered and deleted", async () => {
    const page = await s.call("POST", "/v1/status-pages", { slug: "acme-status", title: "Acme" });
    expect(page.status).toBe(201);
    expect(page.body).toMatchObject({ slug: "acme-status", title: "Acme", passwordProtected: false, theme: "system" });
    const id = page.body.id;
    expect((await s.call("GET", `/v1/status-pages/${id}`)).body).toEqual(page.body);
    expect((await s.call("GET", "/v1/status-pages")).body.statusPages.map((p: { id: number }) => p.id)).toContain(id);

    const group = await s.call("POST", `/v1/status-pages/${id}/groups`, { name: "Core" });
    expect(group.status).toBe(201);
    const api = await s.call("POST", `/v1/status-pages/${id}/components`, { name: "API", groupId: group.body.id });
    const web = await s.call("POST", `/v1/status-pages/${id}/components`, { name: "Website", staticStatus: "degraded" });
    expect([api.status, web.status]).toEqual([201, 201]);
    expect((await s.call("PUT", `/v1/status-pages/${id}/components/order`, { ids: [web.body.id, api.body.id] })).status).toBe(204);
    const patched = await s.call("PATCH", `/v1/status-pages/components/${web.body.id}`, { staticStatus: "operational" });
    expect(patched.body).toMatchObject({ name: "Website", staticStatus: "operational" });
    const listed = await s.call("GET", `/v1/status-pages/${id}/components`);
    expect(listed.body.groups.map((g: { name: string }) => g.name)).toEqual(["Core"]);
    expect(listed.body.components.map((c: { name: string }) => c.name)).toEqual(["Website", "API"]);

    expect((await s.call("PATCH", `/v1/status-pages/groups/${group.body.id}`, { name: "Platform" })).body.name).toBe("Platform");
    expect((await s.call("DELETE", `/v1/status-pages/groups/${group.body.id}`)).status).toBe(204);
    expect((await s.call("DELETE", `/v1/status-pages/components/${api.body.id}`)).status).toBe(204);
    expect((await s.call("GET", `/v1/status-pages/${id}/components`)).body).toMatchObject({
      groups: [],
      components: [{ name: "Website", groupId: null }],
    });
    expect((await s.call("DELETE", `/v1/status-pages/${id}`)).status).toBe(204);
    expect((await s.call("GET", `/v1/status-pages/${id}`)).status).toBe(404);
  });

  it("a page password is accepted but never comes back, in answers or the audit log", async () => {
    const secret = "correct-horse-battery";
    const page = await s.call("POST", "/v1/status-pages", { slug: "private-page", title: "Private", password: secret });
    expect(page.status).toBe(201);
    expect(page.body.passwordProtected).toBe(true);
    const answers = [
      page,
      await s.call("GET", `/v1/status-pages/${page.body.id}`),
      await s.call("GET", "/v1/status-pages"),
      await s.call("PATCH", `/v1/status-pages/${page.body.id}`, { password: `${secret}-2` }),
      await s.call("GET", "/v1/audit-log"),
    ];
    for (const a of answers) {
      expect(JSON.stringify(a.body)).not.toContain(secret);
      expect(JSON.stringify(a.body)).not.toMatch(/scrypt\$|passwordHash/);
    }
    const removed = await s.call("PATCH", `/v1/status-pages/${page.body.id}`, { password: null });
    expect(removed.body.passwordProtected).toBe(false);
  });

  it("bad input names the field and the rule and writes nothing", async () => {
    const before = (await s.call("GET", "/v1/status-pages")).body.statusPages.length;
    const reserved = await s.call("POST", "/v1/status-pages", { slug: "admin", title: "X" });
    expect(reserved.status).toBe(400);
    expect(reserved.body.error.code).toBe("invalid_input");
    expect(reserved.body.error.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "slug", message: expect.stringMatching(/reserved/) })]),
    );
    const short = await s.call("POST", "/v1/status-pages", { slug: "ok-slug", title: "X", password: "short" });
    expect(short.body.error.issues[0]).toMatchObject({ path: "password", message: "must be at least 8 characters" });
    const notObject = await s.call("POST", "/v1/status-pages", "[1]");
    expect(notObject.status).toBe(400);
    expect((await s.call("GET", "/v1/status-pages")).body.statusPages.length).toBe(before);
    await s.call("POST", "/v1/status-pages", { slug: "taken-slug", title: "A" });
    expect((await s.call("POST", "/v1/status-pages", { slug: "taken-slug", title: "B" })).status).toBe(409);
  });

  it("the plan's status-pages count and page features answer 403 limit_exceeded naming the key", async () => {
    const other = await restrictedWorkspace();
    const pw = await other.call("POST", "/v1/status-pages", { slug: "r-private", title: "R", password: "long-enough-pw" });
    expect(pw.status).toBe(403);
    expect(pw.body.error).toMatchObject({ code: "limit_exceeded", key: "password-protection" });
    expect((await other.call("POST", "/v1/status-pages", { slug: "r-first", title: "R" })).status).toBe(201);
    const second = await other.call("POST", "/v1/status-pages", { slug: "r-second", title: "R" });
    expect(second.status).toBe(403);
    expect(second.body.error).toMatchObject({ code: "limit_exceeded", key: "status-pages" });
    const win = await other.call("POST", "/v1/maintenances", { title: "M", startsAt: 1_000, endsAt: 2_000 });
    expect(win.status).toBe(403);
    expect(win.body.error).toMatchObject({ code: "limit_exceeded", key: "maintenance" });
    await other.close();
  });
});

describe("status reports and maintenance over the REST API", () => {
  it("an incident is opened, updated through /updates and resolved, newest update first", async () => {
    const page = await s.call("POST", "/v1/status-pages", { slug: "incidents", title: "Incidents" });
    const comp = await s.call("POST", `/v1/status-pages/${page.body.id}/components`, { name: "Checkout" });
    const opened = await s.call("POST", "/v1/status-reports", {
      pageId: page.body.id,
      title: "Checkout errors",
      message: "We are looking into failed payments.",
      components: [{ componentId: comp.body.id, impact: "partial_outage" }],
    });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      status: "investigating",
      resolvedAt: null,
      components: [{ componentId: comp.body.id, impact: "partial_outage" }],
    });
    const id = opened.body.id;
    const open = await s.call("GET", `/v1/status-reports?open=true&pageId=${page.body.id}`);
    expect(open.body.statusReports.map((r: { id: number }) => r.id)).toEqual([id]);

    const identified = await s.call("POST", `/v1/status-reports/${id}/updates`, { status: "identified", message: "A bad deploy." });
    expect(identified.status).toBe(201);
    expect(identified.body.status).toBe("identified");
    const resolved = await s.call("POST", `/v1/status-reports/${id}/updates`, { status: "resolved", message: "Rolled back." });
    expect(resolved.body.resolvedAt).toEqual(expect.any(Number));
    expect(resolved.body.updates.map((u: { status: string }) => u.status)).toEqual(["resolved", "identified", "investigating"]);
    expect((await s.call("GET", `/v1/status-reports?open=true&pageId=${page.body.id}`)).body.statusReports).toEqual([]);
    expect((await s.call("PATCH", `/v1/status-reports/${id}`, { title: "Checkout errors (resolved)" })).body.title).toBe(
      "Checkout errors (resolved)",
    );

    const badState = await s.call("POST", `/v1/status-reports/${id}/updates`, { status: "fixed", message: "x" });
    expect(badState.status).toBe(400);
    expect(badState.body.error.issues[0]).toMatchObject({ path: "status", message: expect.stringMatching(/must be one of investigating/) });
    const badComponent = await s.call("POST", "/v1/status-reports", {
      pageId: page.body.id,
      title: "T",
      message: "m",
      components: [{ componentId: 999_999 }],
    });
    expect(badComponent.status).toBe(400);
    expect(badComponent.body.error.issues[0].path).toBe("components.0");
    expect((await s.call("GET", "/v1/status-reports?open=maybe")).status).toBe(400);
    expect((await s.call("DELETE", `/v1/status-reports/${id}`)).status).toBe(204);
    expect((await s.call("GET", `/v1/status-reports/${id}`)).status).toBe(404);
  });

  it("a maintenance window is scheduled, listed by page, moved and deleted; an end before the start is refused", async () => {
    const page = await s.call("POST", "/v1/status-pages", { slug: "maint-page", title: "Maint" });
    const comp = await s.call("POST", `/v1/status-pages/${page.body.id}/components`, { name: "DB" });
    const startsAt = 1_900_000_000_000;
    const m = await s.call("POST", "/v1/maintenances", {
      pageId: page.body.id,
      title: "DB upgrade",
      startsAt,
      endsAt: startsAt + 3_600_000,
      components: [comp.body.id],
    });
    expect(m.status).toBe(201);
    expect(m.body).toMatchObject({ title: "DB upgrade", components: [comp.body.id], monitors: [] });
    expect((await s.call("GET", `/v1/maintenances?pageId=${page.body.id}`)).body.maintenances.map((x: { id: number }) => x.id)).toEqual([
      m.body.id,
    ]);
    const moved = await s.call("PATCH", `/v1/maintenances/${m.body.id}`, { endsAt: startsAt + 7_200_000 });
    expect(moved.body.endsAt).toBe(startsAt + 7_200_000);
    const backwards = await s.call("PATCH", `/v1/maintenances/${m.body.id}`, { endsAt: startsAt - 1 });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.issues[0]).toMatchObject({ path: "endsAt", message: "must be after startsAt" });
    expect((await s.call("GET", `/v1/maintenances/${m.body.id}`)).body.endsAt).toBe(startsAt + 7_200_000);
    expect((await s.call("DELETE", `/v1/maintenances/${m.body.id}`)).status).toBe(204);
    expect((await s.call("GET", `/v1/maintenances/${m.body.id}`)).status).toBe(404);
  });

  it("a claimed custom domain is pending until Verify now finds its proof, and says why not", async () => {
    const page = await s.call("POST", "/v1/status-pages", { slug: "claimed", title: "Claimed", customDomain: "status.unproven.test" });
    expect(page.status).toBe(201);
    const v = page.body.domainVerification;
    expect(v).toMatchObject({ state: "pending", txtName: "_vigil.status.unproven.test", verifiedAt: null });
    expect(v.httpUrl).toBe(`http://status.unproven.test/.well-known/vigil-domain-verification/${v.token}`);
    // Nothing answers for the name: not proven, with both reasons.
    const checked = await s.call("POST", `/v1/status-pages/${page.body.id}/domain/verify`);
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({
      state: "failed",
      verifiedAt: null,
      error: expect.stringContaining("_vigil.status.unproven.test"),
    });
    const plain = await s.call("POST", "/v1/status-pages", { slug: "no-domain", title: "No domain" });
    const none = await s.call("POST", `/v1/status-pages/${plain.body.id}/domain/verify`);
    expect(none.status).toBe(400);
    expect(none.body.error.issues).toEqual([{ path: "customDomain", message: "this page has no custom domain to verify" }]);
  });

  it("the OpenAPI document lists the status page, report and maintenance routes", async () => {
    const doc = (await s.call("GET", "/openapi.json", undefined, null)).body;
    for (const path of [
      "/v1/status-pages",
      "/v1/status-pages/{id}/components",
      "/v1/status-pages/{id}/domain/verify",
      "/v1/status-reports/{id}/updates",
      "/v1/maintenances/{id}",
    ])
      expect(Object.keys(doc.paths)).toContain(path);
  });
});

describe("bad bodies on the status routes", () => {
  it("random and mutated bodies never answer 500, and a refused one writes nothing", async () => {
    const page = await s.call("POST", "/v1/status-pages", { slug: "fuzz-page", title: "Fuzz" });
    const comp = await s.call("POST", `/v1/status-pages/${page.body.id}/components`, { name: "Fuzz" });
    const rep = await s.call("POST", "/v1/status-reports", { pageId: page.body.id, title: "Fuzz", message: "m" });
    const values = [null, true, 0, -1, 1.5, 2 ** 53, "", " ", "x".repeat(20_000), "admin", "<script>", [], [1], {}, { a: 1 }, page.body.id];
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const mutate = (valid: Record<string, unknown>) => {
      const body: Record<string, unknown> = { ...valid };
      const keys = [...Object.keys(valid), "extra"];
      for (let i = 0; i <= rand(3); i++) body[keys[rand(keys.length)]!] = values[rand(values.length)];
      return body;
    };
    const routes: [string, string, Record<string, unknown>][] = [
      ["POST", "/v1/status-pages", { slug: "fuzz-new", title: "T", password: "long-enough" }],
      ["PATCH", `/v1/status-pages/${page.body.id}`, { title: "T", links: [{ label: "a", url: "https://a.example" }] }],
      ["POST", `/v1/status-pages/${page.body.id}/components`, { name: "C", staticStatus: "degraded" }],
      ["PATCH", `/v1/status-pages/components/${comp.body.id}`, { name: "C", groupId: null }],
      ["POST", "/v1/status-reports", { pageId: page.body.id, title: "T", message: "m", components: [{ componentId: comp.body.id }] }],
      ["POST", `/v1/status-reports/${rep.body.id}/updates`, { status: "identified", message: "m" }],
      ["POST", "/v1/maintenances", { pageId: page.body.id, title: "T", startsAt: 1, endsAt: 2 }],
      ["PUT", `/v1/status-pages/${page.body.id}/components/order`, { ids: [comp.body.id] }],
    ];
    const count = async () =>
      (
        await s.database.db.$client.execute(
          "select (select count(*) from status_page) + (select count(*) from status_page_component) + (select count(*) from status_report_update) + (select count(*) from maintenance) as n",
        )
      ).rows[0]!.n;
    for (const [method, path, valid] of routes) {
      for (let i = 0; i < 60; i++) {
        const before = await count();
        const r = await s.call(method, path, mutate(valid));
        expect({ method, path, status: r.status < 500 ? "not 5xx" : r.status }).toEqual({ method, path, status: "not 5xx" });
        if (r.status >= 400) {
          expect(r.body.error.code).toEqual(expect.any(String));
          expect(await count()).toEqual(before);
        }
      }
    }
  }, 120_000);
});
