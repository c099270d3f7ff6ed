import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { libsqlAnalytics } from "@vigil/analytics";
import { auditLog, statusPage, subscriberDelivery } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { LimitExceededError } from "@vigil/limits";
import { NotifierEnv } from "@vigil/notifier";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addStatusReportUpdate,
  ConflictError,
  confirmSubscription,
  createComponent,
  createComponentGroup,
  createMaintenance,
  createMonitor,
  createPrivateLocation,
  createStatusPage,
  createStatusReport,
  createWorkspace,
  DAY_MS,
  deleteStatusPage,
  evaluateMonitor,
  findPublicPage,
  getStatusPage,
  loadPublicPage,
  loadPublicReport,
  NotFoundError,
  pendingSubscriberMails,
  promoteIncident,
  recordResults,
  reorderComponents,
  sendSubscriberMails,
  setLimits,
  signPageAccess,
  subscribe,
  unsubscribe,
  updateStatusPage,
  ValidationError,
  verifyPageAccess,
  verifyPagePassword,
} from "../index";
import { probeResult } from "../testing";

let t: TestDatabase;
let ws: number;
let other: number;
let location: { id: number; workspaceId: number; region: string };
beforeAll(async () => {
  t = await startTestDatabase();
  ws = (await createWorkspace(t.db, { name: "pages" }, "operator")).id;
  await setLimits(t.db, ws, "unlimited", "operator");
  other = (await createWorkspace(t.db, { name: "other" }, "operator")).id;
  const { location: loc } = await createPrivateLocation(t.db, ws, { name: "iad", region: "iad" }, "operator");
  location = { id: loc.id, workspaceId: ws, region: "iad" };
});
afterAll(async () => t?.close());

const analytics = () => libsqlAnalytics(t.db);

/** A loopback stand-in for the e-mail provider's API that records what we send. */
async function startCaptureServer(reply: () => { status: number; body: string } | Promise<{ status: number; body: string }>) {
  const requests: { headers: [string, string][]; body: string }[] = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const headers: [string, string][] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i]!.toLowerCase(), req.rawHeaders[i + 1]!]);
    requests.push({ headers, body });
    const r = await reply();
    res.writeHead(r.status, { "content-type": "application/json" }).end(r.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
/** A monitor of a closed loopback port, checked from iad. */
const tcpMonitor = () =>
  createMonitor(t.db, ws, { kind: "tcp", frequency: "1m", regions: ["iad"], request: { host: "127.0.0.1", port: 9 } }, "u");
let slugN = 0;
const newPage = (extra: Record<string, unknown> = {}) =>
  createStatusPage(t.db, ws, { slug: `page-${++slugN}`, title: "Acme", ...extra }, "user:1");

async function report(monitorId: number, cronTimestamp: number, status: "success" | "error") {
  await recordResults(
    t.db,
    location,
    {
      results: [probeResult(monitorId, cronTimestamp, status, { latencyMs: 12, attempts: 1 })],
    },
    cronTimestamp,
  );
  await evaluateMonitor(t.db, monitorId, cronTimestamp + 1000);
}

describe("status page settings", () => {
  it("a reserved or malformed slug is refused with the field named, and nothing is written", async () => {
    const before = (await t.db.select().from(statusPage)).length;
    for (const slug of ["api", "badge", "A", "-acme", "has space"]) {
      const err = await createStatusPage(t.db, ws, { slug, title: "x" }, "u").catch((e) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.issues[0].path).toBe("slug");
    }
    expect((await t.db.select().from(statusPage)).length).toBe(before);
  });

  it("the restricted plan allows one page and no custom domain, password or white label", async () => {
    await createStatusPage(t.db, other, { slug: "other-one", title: "Other" }, "u");
    const second = await createStatusPage(t.db, other, { slug: "other-two", title: "Other" }, "u").catch((e) => e);
    expect(second).toBeInstanceOf(LimitExceededError);
    expect(second.violation.key).toBe("status-pages");
    const [page] = await t.db.select().from(statusPage).where(eq(statusPage.slug, "other-one"));
    for (const [patch, key] of [
      [{ customDomain: "status.other.dev" }, "custom-domain"],
      [{ password: "correct horse" }, "password-protection"],
      [{ whiteLabel: true }, "white-label"],
    ] as const) {
      const err = await updateStatusPage(t.db, other, page!.id, patch, "u").catch((e) => e);
      expect(err).toBeInstanceOf(LimitExceededError);
      expect(err.violation.key).toBe(key);
    }
  });

  it("a page password is stored as a scrypt hash, never shown, and signs a cookie that a password change revokes", async () => {
    const view = await newPage({ password: "correct horse battery" });
    expect(view.passwordProtected).toBe(true);
    expect(JSON.stringify(view)).not.toContain("correct horse");
    const [row] = await t.db.select().from(statusPage).where(eq(statusPage.id, view.id));
    expect(row!.passwordHash).toMatch(/^scrypt\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(await verifyPagePassword(row!.passwordHash, "correct horse battery")).toBe(true);
    expect(await verifyPagePassword(row!.passwordHash, "wrong")).toBe(false);
    const now = Date.UTC(2026, 0, 1);
    const cookie = signPageAccess("s".repeat(32), row!, now + 60_000);
    expect(verifyPageAccess("s".repeat(32), row!, cookie, now)).toBe(true);
    expect(verifyPageAccess("s".repeat(32), row!, cookie, now + 61_000)).toBe(false);
    expect(verifyPageAccess("x".repeat(32), row!, cookie, now)).toBe(false);
    expect(verifyPageAccess("s".repeat(32), row!, `${now + 999_999}.${cookie.split(".")[1]}`, now)).toBe(false);
    await updateStatusPage(t.db, ws, view.id, { password: "another password" }, "u");
    const [changed] = await t.db.select().from(statusPage).where(eq(statusPage.id, view.id));
    expect(verifyPageAccess("s".repeat(32), changed!, cookie, now)).toBe(false);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, String(view.id)));
    expect(JSON.stringify(audit)).not.toContain("another password");
  });

  it("another workspace's page is not found, and a taken slug is a conflict", async () => {
    const page = await newPage({ customDomain: "status.acme.test" });
    await expect(getStatusPage(t.db, other, page.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateStatusPage(t.db, other, page.id, { title: "x" }, "u")).rejects.toBeInstanceOf(NotFoundError);
    await expect(deleteStatusPage(t.db, other, page.id, "u")).rejects.toBeInstanceOf(NotFoundError);
    await expect(createStatusPage(t.db, ws, { slug: page.slug, title: "dup" }, "u")).rejects.toBeInstanceOf(ConflictError);
  });
});

describe("the public read model", () => {
  it("a monitor in error makes its component and the page a major outage; recovery brings back operational", async () => {
    const page = await newPage();
    const m = await tcpMonitor();
    const api = await createComponentGroup(t.db, ws, page.id, { name: "API" }, "u");
    const linked = await createComponent(t.db, ws, page.id, { name: "REST API", monitorId: m.id, groupId: api.id }, "u");
    await createComponent(t.db, ws, page.id, { name: "Docs", staticStatus: "operational" }, "u");
    const now = Date.now();
    const found = (await findPublicPage(t.db, { slug: page.slug }))!;

    let view = await loadPublicPage(t.db, analytics(), found, { now });
    expect(view.components.find((c) => c.id === linked.id)!.state).toBe("monitoring_off");
    expect(view.overall).toBe("operational");

    const slot = Math.floor(now / 60_000) * 60_000;
    await report(m.id, slot - 120_000, "success");
    await report(m.id, slot - 60_000, "error");
    view = await loadPublicPage(t.db, analytics(), found, { now });
    expect(view.components.find((c) => c.id === linked.id)!.state).toBe("major_outage");
    expect(view.overall).toBe("major_outage");
    expect(view.groups.map((g) => [g.name, g.state])).toEqual([
      [null, "operational"],
      ["API", "major_outage"],
    ]);
    const today = view.components.find((c) => c.id === linked.id)!.days.at(-1)!;
    expect(today).toMatchObject({ checks: 2, errors: 1, uptime: 0.5, level: "major_outage" });
    expect(view.components[0]!.days).toHaveLength(90);

    await report(m.id, slot, "success");
    view = await loadPublicPage(t.db, analytics(), found, { now });
    expect(view.overall).toBe("operational");
  });

  it("a report's worst impact wins, its timeline is newest first, and resolving it clears the banner", async () => {
    const page = await newPage();
    const a = await createComponent(t.db, ws, page.id, { name: "Web" }, "u");
    const b = await createComponent(t.db, ws, page.id, { name: "Mail" }, "u");
    const t0 = Date.UTC(2026, 5, 1, 12);
    const r = await createStatusReport(
      t.db,
      ws,
      {
        pageId: page.id,
        title: "Slow mail",
        message: "We are looking into it.",
        date: t0,
        components: [
          { componentId: a.id, impact: "degraded" },
          { componentId: b.id, impact: "partial_outage" },
        ],
      },
      "u",
      t0,
    );
    await addStatusReportUpdate(
      t.db,
      ws,
      r.id,
      { status: "identified", message: "A queue is stuck.", date: t0 + 60_000 },
      "u",
      t0 + 60_000,
    );
    const found = (await findPublicPage(t.db, { slug: page.slug }))!;
    let view = await loadPublicPage(t.db, analytics(), found, { now: t0 + 120_000 });
    expect(view.overall).toBe("partial_outage");
    expect(view.activeReports[0]!.updates.map((u) => u.status)).toEqual(["identified", "investigating"]);
    expect(view.components.find((c) => c.id === a.id)!.days.at(-1)!.incidents).toEqual([
      { id: r.id, title: "Slow mail", impact: "degraded" },
    ]);

    const resolved = await addStatusReportUpdate(
      t.db,
      ws,
      r.id,
      { status: "resolved", message: "Fixed.", date: t0 + 180_000 },
      "u",
      t0 + 180_000,
    );
    expect(resolved.resolvedAt).toBe(t0 + 180_000);
    view = await loadPublicPage(t.db, analytics(), found, { now: t0 + 240_000 });
    expect(view.overall).toBe("operational");
    expect(view.recentReports.map((x) => x.id)).toEqual([r.id]);
    expect((await loadPublicReport(t.db, page.id, r.id))!.updates).toHaveLength(3);
    const otherPage = await newPage();
    expect(await loadPublicReport(t.db, otherPage.id, r.id)).toBeNull();
    await expect(addStatusReportUpdate(t.db, other, r.id, { status: "resolved", message: "x" }, "u")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("an active maintenance window puts its components and the page under maintenance; an upcoming one is listed", async () => {
    const page = await newPage();
    const c = await createComponent(t.db, ws, page.id, { name: "Database" }, "u");
    const now = Date.UTC(2026, 6, 1, 3);
    await createMaintenance(
      t.db,
      ws,
      { pageId: page.id, title: "Upgrade", startsAt: now - 60_000, endsAt: now + 3_600_000, components: [c.id] },
      "u",
    );
    await createMaintenance(t.db, ws, { pageId: page.id, title: "Later", startsAt: now + DAY_MS, endsAt: now + DAY_MS + 3_600_000 }, "u");
    const view = await loadPublicPage(t.db, analytics(), (await findPublicPage(t.db, { slug: page.slug }))!, { now });
    expect(view.overall).toBe("maintenance");
    expect(view.components[0]!.state).toBe("maintenance");
    expect(view.maintenances.map((m) => [m.title, m.active])).toEqual([
      ["Upgrade", true],
      ["Later", false],
    ]);
    const bad = await createMaintenance(t.db, ws, { pageId: page.id, title: "x", startsAt: now, endsAt: now - 1 }, "u").catch((e) => e);
    expect(bad).toBeInstanceOf(ValidationError);
    expect(bad.issues[0].path).toBe("endsAt");
    await expect(createMaintenance(t.db, other, { title: "x", startsAt: now, endsAt: now + 1 }, "u")).rejects.toBeInstanceOf(
      LimitExceededError,
    );
  });

  it("20 components load in one database round trip and one analytics query", async () => {
    const page = await newPage();
    for (let i = 0; i < 20; i++) await createComponent(t.db, ws, page.id, { name: `C${i}` }, "u");
    await reorderComponents(t.db, ws, page.id, [], "u");
    const found = (await findPublicPage(t.db, { slug: page.slug }))!;
    const started = performance.now();
    const view = await loadPublicPage(t.db, analytics(), found);
    expect(view.components).toHaveLength(20);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("a monitor incident is promoted to a report on its linked components, once", async () => {
    const page = await newPage();
    const m = await tcpMonitor();
    const comp = await createComponent(t.db, ws, page.id, { name: "Gateway", monitorId: m.id }, "u");
    const slot = Math.floor(Date.now() / 60_000) * 60_000;
    await report(m.id, slot, "error");
    const [inc] = await t.db.query.incident.findMany({ where: (i, { eq }) => eq(i.monitorId, m.id) });
    const r = await promoteIncident(t.db, ws, inc!.id, { pageId: page.id }, "u");
    expect(r.components).toEqual([{ componentId: comp.id, impact: "major_outage" }]);
    expect(r.incidentId).toBe(inc!.id);
    await expect(promoteIncident(t.db, ws, inc!.id, { pageId: page.id }, "u")).rejects.toBeInstanceOf(ConflictError);
    await expect(promoteIncident(t.db, other, inc!.id, { pageId: page.id }, "u")).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("subscribers", () => {
  const apiMailEnv = (url: string) =>
    NotifierEnv.parse({ EMAIL_PROVIDER_API_URL: url, EMAIL_PROVIDER_API_KEY: "re_test", EMAIL_FROM: "s@acme.test" });
  /** A new page with one confirmed subscriber, a moment older than what is posted next (so it is mailed). */
  async function confirmedSubscriber(email: string) {
    const page = await newPage();
    const sub = await subscribe(t.db, page.id, { email });
    await confirmSubscription(t.db, sub.confirmToken!);
    await new Promise((r) => setTimeout(r, 5));
    return { page, sub };
  }

  it("double opt-in: a wrong, expired or reused token each say so; unsubscribe works once", async () => {
    const page = await newPage();
    const now = Date.now();
    const s = await subscribe(t.db, page.id, { email: " Ann@Example.com " }, now);
    expect(s.email).toBe("ann@example.com");
    expect(await confirmSubscription(t.db, "nope", now)).toEqual({ outcome: "invalid" });
    const late = await subscribe(t.db, page.id, { email: "late@example.com" }, now - 49 * 3_600_000);
    expect(await confirmSubscription(t.db, late.confirmToken!, now)).toEqual({ outcome: "expired" });
    expect((await confirmSubscription(t.db, s.confirmToken!, now)).outcome).toBe("confirmed");
    expect((await confirmSubscription(t.db, s.confirmToken!, now)).outcome).toBe("already-confirmed");
    expect((await subscribe(t.db, page.id, { email: "ann@example.com" }, now)).confirmToken).toBeNull();
    const bad = await subscribe(t.db, page.id, { email: "not-an-address" }).catch((e) => e);
    expect(bad).toBeInstanceOf(ValidationError);
    expect(bad.issues[0].path).toBe("email");
    const otherPage = (await t.db.select().from(statusPage).where(eq(statusPage.slug, "other-one")))[0]!;
    await expect(subscribe(t.db, otherPage.id, { email: "a@b.co" })).rejects.toBeInstanceOf(LimitExceededError);
  });

  it("a new report update is mailed once to each confirmed subscriber with a working unsubscribe link", async () => {
    const mailApi = await startCaptureServer(() => ({ status: 200, body: '{"id":"x"}' }));
    try {
      const env = NotifierEnv.parse({
        EMAIL_PROVIDER_API_URL: mailApi.url,
        EMAIL_PROVIDER_API_KEY: "re_test",
        EMAIL_FROM: "Status <status@acme.test>",
      });
      const page = await newPage();
      const sub = await subscribe(t.db, page.id, { email: "bob@example.com" });
      await subscribe(t.db, page.id, { email: "pending@example.com" });
      await confirmSubscription(t.db, sub.confirmToken!);
      await new Promise((r) => setTimeout(r, 5));
      const r = await createStatusReport(t.db, ws, { pageId: page.id, title: "Login errors", message: "Some logins **fail**." }, "u");

      const summary = await sendSubscriberMails(t.db, env, { publicUrl: "https://status.acme.test/" });
      expect(summary).toEqual({ sent: 1, failed: 0, skipped: 0 });
      expect(mailApi.requests).toHaveLength(1);
      const body = JSON.parse(mailApi.requests[0]!.body);
      expect(body.to).toEqual(["bob@example.com"]);
      expect(body.subject).toBe("[Acme] Investigating: Login errors");
      const link = /Unsubscribe: (\S+)/.exec(body.text)![1]!;
      expect(link).toMatch(/^https:\/\/status\.acme\.test\/unsubscribe\?token=/);
      expect(body.text).toContain(`https://status.acme.test/${page.slug}/reports/${r.id}`);

      // Running again (another worker, a retry after a crash) sends nothing more.
      expect(await sendSubscriberMails(t.db, env, { publicUrl: "https://status.acme.test" })).toEqual({ sent: 0, failed: 0, skipped: 0 });
      expect(mailApi.requests).toHaveLength(1);
      expect(await t.db.select().from(subscriberDelivery)).toHaveLength(1);

      const token = decodeURIComponent(new URL(link).searchParams.get("token")!);
      expect((await unsubscribe(t.db, token)).outcome).toBe("unsubscribed");
      expect((await unsubscribe(t.db, token)).outcome).toBe("already-unsubscribed");
      await addStatusReportUpdate(t.db, ws, r.id, { status: "resolved", message: "Fixed." }, "u");
      expect(await pendingSubscriberMails(t.db)).toEqual([]);
    } finally {
      await mailApi.close();
    }
  });

  it("a failed send is retried later and recorded, still one row per subscriber and update", async () => {
    let fail = true;
    const mailApi = await startCaptureServer(() => (fail ? { status: 503, body: "busy" } : { status: 200, body: "{}" }));
    try {
      const env = apiMailEnv(mailApi.url);
      const { page, sub } = await confirmedSubscriber("carol@example.com");
      const now = Date.now();
      await createMaintenance(t.db, ws, { pageId: page.id, title: "DB upgrade", startsAt: now + 3_600_000, endsAt: now + 7_200_000 }, "u");
      expect(await sendSubscriberMails(t.db, env, { publicUrl: "https://s.test" })).toMatchObject({ sent: 0, failed: 1 });
      fail = false;
      expect(await sendSubscriberMails(t.db, env, { publicUrl: "https://s.test" })).toMatchObject({ sent: 1, failed: 0 });
      const rows = await t.db.select().from(subscriberDelivery).where(eq(subscriberDelivery.subscriberId, sub.subscriberId));
      expect(rows).toMatchObject([{ kind: "maintenance", outcome: "sent", attempts: 2 }]);
      const keys = mailApi.requests.map((q) => q.headers.find(([k]) => k === "idempotency-key")![1]);
      expect(new Set(keys).size).toBe(1);
    } finally {
      await mailApi.close();
    }
  });

  it("a mail the provider accepts while the database restarts is recorded as sent and not mailed again", async () => {
    let restarted: Promise<void> | undefined;
    // The provider accepts the mail just after the database went away; it is back half a second later.
    const mailApi = await startCaptureServer(async () => {
      await t.sqld.stop();
      restarted = new Promise((r) => setTimeout(r, 500)).then(() => t.restart());
      return { status: 200, body: "{}" };
    });
    try {
      const env = apiMailEnv(mailApi.url);
      const { page, sub } = await confirmedSubscriber("dave@example.com");
      await createStatusReport(t.db, ws, { pageId: page.id, title: "Slow checkout", message: "Looking into it." }, "u");
      expect(await sendSubscriberMails(t.db, env, { publicUrl: "https://s.test" })).toMatchObject({ sent: 1, failed: 0 });
      expect(await sendSubscriberMails(t.db, env, { publicUrl: "https://s.test" })).toEqual({ sent: 0, failed: 0, skipped: 0 });
      expect(mailApi.requests).toHaveLength(1);
      const rows = await t.db.select().from(subscriberDelivery).where(eq(subscriberDelivery.subscriberId, sub.subscriberId));
      expect(rows).toMatchObject([{ outcome: "sent", attempts: 1 }]);
    } finally {
      await restarted;
      await mailApi.close();
    }
  });
});
