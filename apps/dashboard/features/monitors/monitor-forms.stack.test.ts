// Over 300 lines: one spine and probe serve every form case; splitting would start them again.
// The monitor form and monitors as code in Chromium, on real processes: sqld, Redis, the API
// server, `next start`, a real probe and loopback targets.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listenTls, makeCertificate, startDnsServer } from "@vigil/checks/testing";
import { certificateNotAfter, createMonitor, createPrivateLocation, getMonitor, listMonitors, setLimits, storedHeaders } from "@vigil/core";
import { freePort, startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildDashboard,
  type Dashboard,
  launchChromium,
  mailSignInEnv,
  type Proc,
  shot,
  startDashboard,
  startMailApi,
  startProbe,
  startService,
  until,
} from "../../src/testing";

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback HTTP target that records what it was sent. */
async function target(handler: (req: Seen, res: import("node:http").ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const s = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      seen.push(s);
      handler(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let db: TestDatabase;
let mail: Awaited<ReturnType<typeof startMailApi>>;
let dash: Dashboard;
let browser: Browser;
let page: Page;
let ws: number;
let api: Awaited<ReturnType<typeof target>>;
let rpc: Awaited<ReturnType<typeof target>>;
const procs: Proc[] = [];
const dir = mkdtempSync(join(tmpdir(), "vigil-monitor-forms-"));
const prefix = `monform-${randomBytes(3).toString("hex")}`;

beforeAll(async () => {
  const [, database, mailApi, a, r] = await Promise.all([
    buildDashboard(),
    startTestDatabase(),
    startMailApi(),
    target((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok","version":3}')),
    // A JSON-RPC server answering over an event stream, as MCP-style servers do.
    target((req, res) => {
      const id = (JSON.parse(req.body || "{}") as { id?: unknown }).id ?? null;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(`event: message\ndata: ${JSON.stringify({ result: {}, jsonrpc: "2.0", id })}\n\n`);
    }),
  ]);
  db = database;
  mail = mailApi;
  api = a;
  rpc = r;
  const serverPort = await freePort();
  const serverUrl = `http://127.0.0.1:${serverPort}`;
  let server: Proc;
  [dash, server, browser] = await Promise.all([
    startDashboard({
      DATABASE_URL: db.url,
      ...mailSignInEnv(mail),
      PUBLIC_INGEST_URL: serverUrl,
      REDIS_URL: "redis://127.0.0.1:6379",
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: "warn",
    }),
    startService(
      "apps/server/src/main.ts",
      { DATABASE_URL: db.url, PORT: String(serverPort), HOST: "127.0.0.1", LOG_LEVEL: "warn", QUEUE_PREFIX: prefix, PROBE_WAIT_MS: "2000" },
      serverPort,
    ),
    launchChromium(),
  ]);
  procs.push(server);

  // Signed in by magic link; the workspace gets limits and one private location with a real probe.
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await ctx.newPage();
  await page.goto(`${dash.url}/signin`);
  await page.getByLabel("Email").fill("ops@example.com");
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await page.waitForURL(/\/signin\/check/);
  await page.goto(await mail.linkFor("ops@example.com", /sign in to Vigil/i));
  await page.waitForURL(/\/w\/\d+$/);
  ws = Number(/\/w\/(\d+)/.exec(page.url())![1]);
  await setLimits(
    db.db,
    ws,
    { monitors: 20, periodicity: ["30s", "1m", "5m", "10m", "30m", "1h"], "multi-region": true, "private-locations": true },
    "operator",
  );
  const { key } = await createPrivateLocation(db.db, ws, { name: "rack-1", region: "iad" }, "operator");
  procs.push(await startProbe(key, serverUrl, join(dir, "probe")));
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([dash?.stop(), ...procs.map((p) => p.stop())]);
  await Promise.all([mail?.close(), api?.close(), rpc?.close()]);
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

// Generous: beside other browser files on two cores, a server action can take many seconds.
async function visible(locator: Locator, timeout = 60_000) {
  await locator.first().waitFor({ state: "visible", timeout });
}

/** A tampered form: a frequency the menu does not offer. */
async function tamperFrequency(value: string) {
  await page.getByLabel("Frequency").evaluate((el, v) => {
    const s = el as HTMLSelectElement;
    s.add(new Option(`every ${v}`, v));
    s.value = v;
    s.dispatchEvent(new Event("change", { bubbles: true }));
  }, value);
}

const monitorCount = async () => (await listMonitors(db.db, ws)).length;

/** The form at /monitors/new, with name and URL filled. */
async function newHttpForm(name: string, url: string) {
  await page.goto(`${dash.url}/w/${ws}/monitors/new`);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("URL").fill(url);
}

describe("monitor form", () => {
  it("an HTTP monitor created through the form is saved with every field, listed, shown on its edit page without its secret, and checked by the probe", {
    timeout: 150_000,
  }, async () => {
    await newHttpForm("API health", `${api.url}/health`);
    await page.getByLabel("Method").selectOption("GET");
    await page.getByRole("button", { name: "Add header" }).click();
    await page.getByLabel("Headers 1 name").fill("Authorization");
    await page.getByLabel("Headers 1 value").fill("Bearer s3cret-token");
    await page.getByRole("button", { name: "Add header" }).click();
    await page.getByLabel("Headers 2 name").fill("X-Env");
    await page.getByLabel("Headers 2 value").fill("test");
    // The assertion builder, by keyboard: the new row's kind gets the focus.
    await page.getByRole("button", { name: "Add assertion" }).click();
    await until(
      "the new row's kind to take the focus",
      async () => (await page.evaluate(() => document.activeElement?.getAttribute("name"))) === "assertion.1.kind",
    );
    await page.getByLabel("Assertion 2 kind").selectOption("jsonBody");
    await page.getByLabel("Assertion 2 JSON path").fill("$.status");
    await page.getByLabel("Assertion 2 expected value").fill("ok");
    await page.getByRole("button", { name: "Add assertion" }).click();
    await page.getByLabel("Assertion 3 kind").selectOption("latency");
    await page.getByLabel("Assertion 3 comparator").selectOption("lt");
    await page.getByLabel("Assertion 3 expected value").fill("5000");
    await page.getByLabel("Frequency").selectOption("30s");
    await page.getByLabel("Timeout").fill("10s");
    await page.getByLabel("Degraded after").fill("2s");
    await page.getByLabel("Retries").fill("2");
    await page.getByLabel("OTLP endpoint").fill("ftp://collector:4318");
    // The only location is preselected.
    expect(await page.getByRole("checkbox", { name: /Ashburn \(iad\)/ }).isChecked()).toBe(true);
    await shot(page, "monitor-form");

    // OTLP over ftp is refused beside its field; nothing is written.
    await page.getByRole("button", { name: "Create monitor" }).click();
    await visible(page.getByText("OTLP endpoint must be an http:// or https:// OTLP/HTTP URL"));
    expect(await monitorCount()).toBe(0);
    await page.getByLabel("OTLP endpoint").fill("http://collector:4318/v1/metrics");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await page.waitForURL(/\/monitors\?saved=\d+/);
    const id = Number(new URL(page.url()).searchParams.get("saved"));
    await visible(page.locator("tr", { hasText: "API health" }));

    const m = await getMonitor(db.db, ws, id);
    expect(m).toMatchObject({
      kind: "http",
      key: "api-health",
      name: "API health",
      frequency: "30s",
      regions: ["iad"],
      retry: 2,
      timeout: 10_000,
      degradedAfter: 2_000,
      openTelemetry: { endpoint: "http://collector:4318/v1/metrics", headers: {} },
      request: { url: `${api.url}/health`, method: "GET", headers: { Authorization: "***", "X-Env": "test" } },
      assertions: [
        { kind: "statusCode", compare: "eq", target: 200 },
        { kind: "jsonBody", path: "$.status", compare: "eq", target: "ok" },
        { kind: "latency", compare: "lt", target: 5000 },
      ],
    });
    expect((await storedHeaders(db.db, ws, id))?.headers.Authorization).toBe("Bearer s3cret-token");

    // The edit page shows the fields; the secret only as set.
    await page.goto(`${dash.url}/w/${ws}/monitors/${id}/edit`);
    expect(await page.getByLabel("URL").inputValue()).toBe(`${api.url}/health`);
    expect(await page.getByLabel("Headers 1 value").inputValue()).toBe("");
    expect(await page.getByLabel("Headers 1 value").getAttribute("placeholder")).toMatch(/set — leave empty to keep/);
    expect(await page.getByLabel("Assertion 2 JSON path").inputValue()).toBe("$.status");
    expect(await page.content()).not.toContain("s3cret-token");
    await shot(page, "monitor-form-edit");
    // Saving untouched keeps the secret.
    await page.getByLabel("Retries").fill("3");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL(/\/monitors\?saved=/);
    expect((await storedHeaders(db.db, ws, id))?.headers.Authorization).toBe("Bearer s3cret-token");
    expect((await getMonitor(db.db, ws, id)).retry).toBe(3);

    // The probe was told at once and checks the saved monitor with the stored secret.
    const hit = await until("the probe to check the new monitor", () => api.seen.find((s) => s.url === "/health"), 60_000);
    expect(hit.headers.authorization).toBe("Bearer s3cret-token");
    expect(hit.headers["x-env"]).toBe("test");
  });

  it("a DNS monitor is made through the form drawn from its registry entry, a bad field named beside it; a TLS monitor's list row shows its certificate's days left", {
    timeout: 150_000,
  }, async () => {
    const dns = await startDnsServer();
    const tls = await listenTls(await makeCertificate(40));
    try {
      dns.zone.set("mail.example.test", [{ type: "MX", priority: 10, exchange: "mx.example.test" }]);
      const before = await monitorCount();
      await page.goto(`${dash.url}/w/${ws}/monitors/new`);
      await page.getByText("DNS", { exact: true }).click();
      await page.getByLabel("Name", { exact: true }).fill("Mail exchanger");
      await page.getByLabel("DNS name", { exact: true }).fill("mail.example.test");
      await page.getByLabel("DNS record type").selectOption("MX");
      await page.getByLabel("DNS resolver").fill("127.0.0.1:70000");
      await page.getByLabel("Assertions (JSON)").fill('[{"kind":"answer","compare":"eq","target":["10 mx.example.test"]}]');
      await page.getByRole("button", { name: "Create monitor" }).click();
      await visible(page.getByText("port must be 1-65535"));
      expect(await monitorCount()).toBe(before);
      await shot(page, "monitor-form-dns");
      await page.getByLabel("DNS resolver").fill(`127.0.0.1:${dns.port}`);
      await page.getByRole("button", { name: "Create monitor" }).click();
      await page.waitForURL(/\/monitors\?saved=\d+/);
      const id = Number(new URL(page.url()).searchParams.get("saved"));
      expect(await getMonitor(db.db, ws, id)).toMatchObject({
        kind: "dns",
        request: { name: "mail.example.test", recordType: "MX", resolver: `127.0.0.1:${dns.port}` },
        assertions: [{ kind: "answer", compare: "eq", target: ["10 mx.example.test"] }],
      });
      await until("the probe to ask the DNS server", () => dns.queries.includes("udp mail.example.test MX"), 60_000);

      const t = await createMonitor(
        db.db,
        ws,
        {
          name: "Mail TLS",
          kind: "tls",
          frequency: "30s",
          regions: ["iad"],
          request: { host: "127.0.0.1", port: tls.port },
          assertions: [{ kind: "certificate", property: "valid", target: false }],
        },
        "user:1",
      );
      await until("the TLS monitor's certificate to be stored", async () => (await certificateNotAfter(db.db, ws, t.id)) !== null, 90_000);
      await page.goto(`${dash.url}/w/${ws}/monitors`);
      await visible(page.locator("tr", { hasText: "Mail TLS" }).getByText("certificate: 40 days left"));
      await shot(page, "monitors-cert-days");
      await page.goto(`${dash.url}/w/${ws}/monitors/${t.id}`);
      await visible(page.getByText("certificate: 40 days left"));
    } finally {
      await Promise.all([dns.close(), tls.close()]);
    }
  });

  it("a bad URL or a bad frequency shows the rule beside the field and writes nothing", { timeout: 60_000 }, async () => {
    const before = await monitorCount();
    await newHttpForm("Broken", "not a url");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await visible(page.locator("#url-error", { hasText: "URL must be a target URL" }));
    expect(await page.getByLabel("URL").getAttribute("aria-invalid")).toBe("true");
    await shot(page, "monitor-form-errors");

    await page.getByLabel("URL").fill(`${api.url}/health`);
    // A tampered form: a frequency no menu offers.
    await tamperFrequency("7m");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await visible(page.locator("#frequency-error", { hasText: "Frequency must be one of 30s, 1m, 5m, 10m, 30m, 1h" }));
    expect(await monitorCount()).toBe(before);
  });

  it("a refused limit names its key beside the field, and nothing is written", { timeout: 60_000 }, async () => {
    await setLimits(db.db, ws, { periodicity: ["1m", "5m", "10m", "30m", "1h"] }, "operator");
    try {
      const before = await monitorCount();
      await newHttpForm("Too often", `${api.url}/health`);
      const offered = await page.getByLabel("Frequency").locator("option").allInnerTexts();
      expect(offered).toEqual(["every 1m", "every 5m", "every 10m", "every 30m", "every 1h"]);
      await tamperFrequency("30s");
      await page.getByRole("button", { name: "Create monitor" }).click();
      await visible(
        page.locator("#frequency-error", { hasText: "Frequency is refused by the limit periodicity: frequency 30s is not allowed" }),
      );
      await shot(page, "monitor-form-limit");
      expect(await monitorCount()).toBe(before);

      await setLimits(db.db, ws, { monitors: before }, "operator");
      await page.getByLabel("Frequency").selectOption("1m");
      await page.getByRole("button", { name: "Create monitor" }).click();
      await visible(page.getByText(`monitors: the limit is ${before}, this would make ${before + 1}`));
      expect(await monitorCount()).toBe(before);
    } finally {
      await setLimits(db.db, ws, { monitors: 20, periodicity: ["30s", "1m", "5m", "10m", "30m", "1h"] }, "operator");
    }
  });
});

describe("Test now", () => {
  it("a failing assertion shows which one failed and the value the probe saw, before anything is saved", { timeout: 90_000 }, async () => {
    const before = await monitorCount();
    await newHttpForm("Wrong expectations", `${api.url}/version`);
    await page.getByLabel("Assertion 1 expected value").fill("201");
    await page.getByRole("button", { name: "Add assertion" }).click();
    await page.getByLabel("Assertion 2 kind").selectOption("jsonBody");
    await page.getByLabel("Assertion 2 JSON path").fill("$.version");
    await page.getByLabel("Assertion 2 comparator").selectOption("gte");
    await page.getByLabel("Assertion 2 expected value").fill("4");
    await page.getByRole("button", { name: "Test now" }).click();
    const result = page.getByTestId("test-result");
    await visible(result, 60_000);
    await visible(result.getByText("error", { exact: true }));
    const failed = result.locator('[data-testid="assertion-outcome"][data-ok="false"]');
    expect(await failed.allInnerTexts()).toEqual(["statusCode: expected eq 201, got 200", "jsonBody $.version: expected gte 4, got 3"]);
    await visible(result.getByText(/HTTP 200/));
    await visible(result.getByText("rack-1", { exact: false }));
    await visible(result.getByText("First byte")); // phase timings
    await shot(page, "monitor-form-test");
    expect(api.seen.some((s) => s.url === "/version")).toBe(true);
    expect(await monitorCount()).toBe(before);
  });

  it("the JSON-RPC 2.0 ping preset passes Test now against an event-stream server", { timeout: 90_000 }, async () => {
    await newHttpForm("MCP server", `${rpc.url}/mcp`);
    await page.getByRole("button", { name: "JSON-RPC 2.0 ping" }).click();
    expect(await page.getByLabel("Method").inputValue()).toBe("POST");
    expect(await page.getByLabel("Body").inputValue()).toBe('{"jsonrpc":"2.0","id":"1","method":"ping"}');
    expect(await page.getByLabel("Assertion 2 expected value").inputValue()).toBe('{"result":{},"jsonrpc":"2.0","id":"1"}');
    await page.getByRole("button", { name: "Test now" }).click();
    const result = page.getByTestId("test-result");
    await visible(result, 60_000);
    await visible(result.getByText("success", { exact: true }));
    expect(await result.locator('[data-testid="assertion-outcome"][data-ok="false"]').count()).toBe(0);
    const passed = await result.locator('[data-testid="assertion-outcome"][data-ok="true"]').allInnerTexts();
    expect(passed).toHaveLength(3);
    expect(passed).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^statusCode: eq 200 \(got 200\)$/),
        expect.stringMatching(/^textBody: eq .*result.*\(got .*result/),
        expect.stringMatching(/^jsonrpc: reply with id "1" has a result$/),
      ]),
    );
    await shot(page, "monitor-form-jsonrpc");
    const sent = rpc.seen.at(-1)!;
    expect(sent).toMatchObject({ method: "POST", body: '{"jsonrpc":"2.0","id":"1","method":"ping"}' });
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(sent.headers.accept).toBe("application/json, text/event-stream");
  });
});

describe("monitors as code", () => {
  it("export downloads the workspace as YAML without secrets; an upload shows the plan, and apply makes it so (stored secrets kept)", {
    timeout: 90_000,
  }, async () => {
    const res = await page.request.get(`${dash.url}/w/${ws}/monitors/export`);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-disposition"]).toMatch(/attachment; filename=".+-monitors\.yaml"/);
    const exported = await res.text();
    expect(exported).toContain("api-health:");
    expect(exported).toMatch(/Authorization: ["']?\$\{API_HEALTH_AUTHORIZATION\}/);
    expect(exported).not.toContain("s3cret");

    const edited = `${exported.replace("frequency: 30s", "frequency: 5m")}\npostgres:\n  kind: tcp\n  frequency: 1m\n  regions: [iad]\n  request: { host: 127.0.0.1, port: 5432 }\n`;
    await page.goto(`${dash.url}/w/${ws}/monitors/import`);
    await page.locator("#file").setInputFiles({ name: "monitors.yaml", mimeType: "application/yaml", buffer: Buffer.from(edited) });
    await page.getByRole("button", { name: "Review plan" }).click();
    const plan = page.getByTestId("plan");
    await visible(plan);
    const lines = await plan.locator("span").allInnerTexts();
    // Only the new entry is created: every exported monitor is matched, those made without a key by the key the export gave them.
    expect(lines.filter((l) => l.startsWith("+"))).toEqual(["+ postgres"]);
    expect(lines).toContain("~ api-health");
    await shot(page, "monitor-form-import-plan");
    const before = await listMonitors(db.db, ws);
    expect(before.map((m) => m.key)).not.toContain("postgres");

    await page.getByRole("button", { name: /^Apply \d+ changes?$/ }).click();
    await visible(page.getByRole("heading", { name: "Applied" }));
    const after = await listMonitors(db.db, ws);
    expect(after.length).toBe(before.length + 1);
    const health = after.find((m) => m.key === "api-health")!;
    expect(health.frequency).toBe("5m");
    expect(after.find((m) => m.key === "postgres")).toMatchObject({ kind: "tcp", request: { host: "127.0.0.1", port: 5432 } });
    expect((await storedHeaders(db.db, ws, health.id))?.headers.Authorization).toBe("Bearer s3cret-token");
  });

  it("a file with one bad entry shows line:column key rule for each problem and changes nothing", { timeout: 60_000 }, async () => {
    const state = async () => (await listMonitors(db.db, ws)).map((m) => `${m.key}@${m.updatedAt}`);
    const before = await state();
    const bad = [
      "fine:",
      "  kind: http",
      "  frequency: 1m",
      "  regions: [iad]",
      `  request: { url: "${api.url}/fine" }`,
      "broken:",
      "  kind: http",
      "  frequency: 7m",
      "  regions: [iad]",
      "  request:",
      "    url: nope",
      "",
    ].join("\n");
    await page.goto(`${dash.url}/w/${ws}/monitors/import`);
    await page.locator("#file").setInputFiles({ name: "bad.yaml", mimeType: "application/yaml", buffer: Buffer.from(bad) });
    await page.getByRole("button", { name: "Review plan" }).click();
    const errors = page.getByTestId("yaml-errors");
    await visible(errors);
    const lines = await errors.locator("li").allInnerTexts();
    expect(lines).toEqual([
      expect.stringMatching(/^8:14 broken\.frequency must be one of 30s, 1m/),
      expect.stringMatching(/^11:10 broken\.request\.url /),
    ]);
    await shot(page, "monitor-form-import-errors");
    expect(await page.getByRole("button", { name: /^Apply/ }).count()).toBe(0);
    expect(await state()).toEqual(before);
  });
});
