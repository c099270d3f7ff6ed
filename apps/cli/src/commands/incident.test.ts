import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/src/testing";
import { run } from "../main";
import { capture, loopback } from "../testing/harness";

const TOKEN = "vk_test_incident";
const PAGES = { statusPages: [{ id: 7, slug: "acme", title: "Acme" }] };
const COMPONENTS = {
  groups: [],
  components: [
    { id: 31, name: "API" },
    { id: 32, name: "Website" },
  ],
};
const report = (over: Record<string, unknown> = {}) => ({
  id: 90,
  pageId: 7,
  title: "Checkout errors",
  status: "investigating",
  resolvedAt: null,
  createdAt: 1_800_000_000_000,
  updatedAt: 1_800_000_000_000,
  updates: [{ id: 1, reportId: 90, status: "investigating", message: "Looking.", date: 1_800_000_000_000 }],
  components: [],
  ...over,
});

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const setup = (url: string) => capture({ VIGIL_API_URL: url, VIGIL_API_TOKEN: TOKEN });

describe("vigil incident (request shape)", () => {
  it("open finds the page by slug and components by name or id and posts one report with the chosen impact", async () => {
    server = await loopback({
      "GET /v1/status-pages": { status: 200, body: PAGES },
      "GET /v1/status-pages/7/components": { status: 200, body: COMPONENTS },
      "POST /v1/status-reports": (req) => ({
        status: 201,
        body: report({ components: (req.body as { components: unknown[] }).components }),
      }),
    });
    const t = setup(server.url);
    const code = await run(
      [
        "incident",
        "open",
        "--page",
        "acme",
        "--title",
        "Checkout errors",
        "--component",
        "api",
        "32",
        "--impact",
        "partial",
        "--message",
        "Looking.",
      ],
      t.io,
    );
    expect(t.stderr()).toBe("");
    expect(code).toBe(0);
    const post = server.requests.find((r) => r.method === "POST");
    expect(post?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(post?.body).toEqual({
      pageId: 7,
      title: "Checkout errors",
      message: "Looking.",
      components: [
        { componentId: 31, impact: "partial_outage" },
        { componentId: 32, impact: "partial_outage" },
      ],
    });
    expect(t.stdout()).toContain("opened on acme: incident 90: Checkout errors (investigating)");
    expect(t.stdout()).toContain("affects API: partial outage");
  });

  it("an unknown page or component is exit 1 naming what exists, and nothing is posted", async () => {
    server = await loopback({
      "GET /v1/status-pages": { status: 200, body: PAGES },
      "GET /v1/status-pages/7/components": { status: 200, body: COMPONENTS },
    });
    const page = setup(server.url);
    expect(await run(["incident", "open", "--page", "nope", "--title", "X"], page.io)).toBe(1);
    expect(page.stderr()).toBe('vigil: no status page "nope"; pages: acme (7)\n');
    const comp = setup(server.url);
    expect(await run(["incident", "open", "--page", "7", "--title", "X", "--component", "db", "--json"], comp.io)).toBe(1);
    expect(JSON.parse(comp.stdout())).toEqual({
      error: { message: 'no component "db" on acme; components: API (31), Website (32)', exitCode: 1, issues: [] },
    });
    expect(server.requests.filter((r) => r.method === "POST")).toEqual([]);
  });

  it("update and resolve post to /updates; a refused update is exit 1 with the server's reason", async () => {
    server = await loopback({
      "POST /v1/status-reports/90/updates": (req) => ({
        status: 201,
        body: report({ status: (req.body as { status: string }).status, updates: [{ ...(req.body as object), date: 1_800_000_100_000 }] }),
      }),
      "POST /v1/status-reports/91/updates": {
        status: 404,
        body: { error: { code: "not_found", message: "no status report 91" } },
      },
    });
    const upd = setup(server.url);
    expect(await run(["incident", "update", "90", "--state", "identified", "--message", "Bad deploy."], upd.io)).toBe(0);
    expect(upd.stdout()).toContain("updated incident 90: Checkout errors (identified)");
    const res = setup(server.url);
    expect(await run(["incident", "resolve", "90", "--json"], res.io)).toBe(0);
    expect(JSON.parse(res.stdout())).toMatchObject({ id: 90, status: "resolved" });
    expect(server.requests.map((r) => r.body)).toEqual([
      { status: "identified", message: "Bad deploy." },
      { status: "resolved", message: "This incident has been resolved." },
    ]);
    const missing = setup(server.url);
    expect(await run(["incident", "resolve", "91"], missing.io)).toBe(1);
    expect(missing.stderr()).toContain("404 not_found): no status report 91");
  });

  it("a wrong state or id is refused before any request", async () => {
    server = await loopback({});
    const state = setup(server.url);
    expect(await run(["incident", "update", "90", "--state", "fixed", "--message", "x"], state.io)).toBe(1);
    expect(state.stderr()).toMatch(/--state <state>' argument 'fixed' is invalid\. Allowed choices are identified, monitoring, resolved/);
    const id = setup(server.url);
    expect(await run(["incident", "resolve", "abc"], id.io)).toBe(1);
    expect(id.stderr()).toBe('vigil: "abc" is not an incident id (a positive whole number, see `vigil incident list`)\n');
    expect(server.requests).toEqual([]);
  });

  it("list asks for open incidents of the page and prints a table; a busy server is asked again", async () => {
    let calls = 0;
    server = await loopback({
      "GET /v1/status-pages": { status: 200, body: PAGES },
      "GET /v1/status-reports?pageId=7&open=true": () =>
        ++calls === 1
          ? { status: 503, body: { error: { code: "unavailable", message: "busy" } } }
          : { status: 200, body: { statusReports: [report()] } },
    });
    const t = capture({ VIGIL_API_URL: server.url, VIGIL_API_TOKEN: TOKEN });
    expect(await run(["incident", "list", "--page", "acme"], t.io)).toBe(0);
    expect(calls).toBe(2);
    expect(t.stdout()).toBe(
      "ID  STATE          PAGE  STARTED                   TITLE\n90  investigating  acme  2027-01-15T08:00:00.000Z  Checkout errors\n",
    );
  }, 20_000);
});

describe("vigil incident against the real server", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  it("an on-call engineer opens, updates and resolves an incident and the page's report shows each step", async () => {
    const page = await s.call("POST", "/v1/status-pages", { slug: "oncall", title: "On call" });
    await s.call("POST", `/v1/status-pages/${page.body.id}/components`, { name: "Payments" });
    const cli = () => capture({ VIGIL_API_URL: s.url, VIGIL_API_TOKEN: s.apiKey });

    const opened = cli();
    expect(
      await run(["incident", "open", "--page", "oncall", "--title", "Payments failing", "--component", "payments", "--json"], opened.io),
    ).toBe(0);
    const id = JSON.parse(opened.stdout()).id as number;
    expect((await s.call("GET", `/v1/status-reports/${id}`)).body).toMatchObject({
      title: "Payments failing",
      status: "investigating",
      components: [{ impact: "major_outage" }],
    });

    const listed = cli();
    expect(await run(["incident", "list"], listed.io)).toBe(0);
    expect(listed.stdout()).toMatch(new RegExp(`^${id}\\s+investigating\\s+oncall\\s.*Payments failing$`, "m"));

    const updated = cli();
    expect(await run(["incident", "update", String(id), "--state", "monitoring", "--message", "Fix deployed."], updated.io)).toBe(0);
    const resolved = cli();
    expect(await run(["incident", "resolve", String(id), "--message", "All payments go through."], resolved.io)).toBe(0);
    expect(resolved.stdout()).toContain(`resolved incident ${id}: Payments failing (resolved)`);

    const final = (await s.call("GET", `/v1/status-reports/${id}`)).body;
    expect(final.resolvedAt).toEqual(expect.any(Number));
    expect(final.updates.map((u: { status: string; message: string }) => [u.status, u.message])).toEqual([
      ["resolved", "All payments go through."],
      ["monitoring", "Fix deployed."],
      ["investigating", "We are investigating this issue."],
    ]);
    const none = cli();
    expect(await run(["incident", "list"], none.io)).toBe(0);
    expect(none.stdout()).toBe("no open incidents\n");
    const badPage = cli();
    expect(await run(["incident", "open", "--page", "oncall", "--title", " "], badPage.io)).toBe(1);
    expect(badPage.stderr()).toMatch(/400 invalid_input\): status report: title must not be empty/);
  });
});
