// Over 300 lines: one spine (server, workflows, probe, Next) serves every channel case; splitting would start it again.
// Notification channels in Chromium against the real spine: sqld, Redis, server, workflows and a
// probe (test/e2e/harness), `next start`, a loopback target and a loopback webhook receiver.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { acceptInvitation, getChannelForSending, inviteMember } from "@vigil/core";
import { WebhookPayload } from "@vigil/notifier";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Stack, startStack } from "../../../../test/e2e/harness";
import {
  buildDashboard,
  type Dashboard,
  launchChromium,
  mailSignInEnv,
  shot,
  signInByMail,
  startDashboard,
  startMailApi,
  until,
} from "../../src/testing";

/** Answers with `status` (or 503 for the next `failNext` requests) and keeps every request. */
class Receiver {
  server?: Server;
  port = 0;
  status = 200;
  reply = "ok";
  failNext = 0;
  got: { path: string; headers: IncomingHttpHeaders; body: string; answered: number }[] = [];
  async start() {
    this.server = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        let status = this.status;
        if (this.failNext > 0) {
          this.failNext -= 1;
          status = 503;
        }
        this.got.push({ path: req.url ?? "", headers: req.headers, body, answered: status });
        res.writeHead(status, { "content-type": "text/plain" }).end(status === 503 ? "busy, later" : this.reply);
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, "127.0.0.1", r));
    this.port = (this.server.address() as AddressInfo).port;
  }
  url = (path: string) => `http://127.0.0.1:${this.port}${path}`;
  alerts = () => this.got.filter((g) => g.headers["x-vigil-event"] !== "test");
  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }
}

/** The monitored HTTP target: stopping it refuses connections; it comes back on the same port. */
class Target {
  server?: Server;
  port = 0;
  async start() {
    this.server = createServer((_req, res) => res.writeHead(200, { connection: "close" }).end("ok"));
    await new Promise<void>((r) => this.server!.listen(this.port, "127.0.0.1", r));
    this.port = (this.server.address() as AddressInfo).port;
  }
  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }
}

let stack: Stack;
let dash: Dashboard;
let browser: Browser;
let mail: Awaited<ReturnType<typeof startMailApi>>;
let page: Page;
let own: number;
const receiver = new Receiver();
const target = new Target();
const HEADER_SECRET = `Bearer hdr-${randomBytes(8).toString("hex")}`;
const SIGNING_SECRET = `sig-${randomBytes(12).toString("hex")}`;

beforeAll(async () => {
  // The build first: on a busy machine the services would not get healthy in time beside it.
  await buildDashboard();
  const [s, m] = await Promise.all([
    // A slow first retry, so a retrying attempt and its next-retry time are in the log before the resend.
    startStack(["iad"], { workflows: { NOTIFY_BACKOFF_MS: "3000" } }),
    startMailApi(),
    receiver.start(),
    target.start(),
  ]);
  stack = s;
  mail = m;
  [dash, browser] = await Promise.all([
    startDashboard({
      ...stack.dbEnv,
      ...mailSignInEnv(mail),
      LOG_LEVEL: "warn",
    }),
    launchChromium(),
  ]);
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  // Six test runs share two cores: a page can take long to answer without anything being wrong.
  page.setDefaultTimeout(60_000);
  page.setDefaultNavigationTimeout(90_000);
  await signInByMail(page, mail, dash.url, "ops@example.com");
  await page.waitForURL(/\/w\/\d+$/);
  own = Number(/\/w\/(\d+)/.exec(page.url())![1]);
  // Also an admin of the spine's workspace (unlimited), where the probe runs.
  const users = await stack.db.$client.execute({ sql: "SELECT id FROM user WHERE email = ?", args: ["ops@example.com"] });
  const { token } = await inviteMember(stack.db, stack.workspaceId, { email: "ops@example.com", role: "admin" }, "operator");
  await acceptInvitation(stack.db, token, { id: String(users.rows[0]![0]), email: "ops@example.com" });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await dash?.stop();
  await stack?.close();
  await Promise.all([receiver.stop(), target.stop(), mail?.close()]);
});

const channelCount = async (ws: number) =>
  Number(
    (await stack.db.$client.execute({ sql: "SELECT count(*) FROM notification_channel WHERE workspace_id = ?", args: [ws] })).rows[0]![0],
  );

/** The rendered text, as a person reads it (cells separated by whitespace). */
async function textOf(locator: Locator): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, not the DOM property
  return (await locator.innerText()).trim();
}

async function see(locator: Locator, timeout = 30_000) {
  await locator.first().waitFor({ state: "visible", timeout });
}

let channelId = 0;
let monitorId = 0;

describe("notification channels in the dashboard", () => {
  it("every channel kind can be picked, and one the plan lacks is refused naming the limit key, nothing written", {
    timeout: 120_000,
  }, async () => {
    await page.goto(`${dash.url}/w/${own}/notifications/new`);
    expect(await page.getByRole("list", { name: "Channel kinds" }).getByRole("listitem").count()).toBe(13);
    await see(page.getByRole("link", { name: /SMS.*not in plan: sms/ }));
    await shot(page, "channels-kinds");
    await page.getByRole("link", { name: /^SMS/ }).click();
    await page.getByLabel("Name", { exact: true }).fill("on-call phone");
    await page.getByLabel("Phone number").fill("+14155550123");
    await page.getByRole("button", { name: "Create channel" }).click();
    await see(page.getByTestId("form-error").getByText(/Limit reached — sms: /));
    // What was typed is still there after the refusal.
    expect(await page.getByLabel("Phone number").inputValue()).toBe("+14155550123");
    await shot(page, "channels-limit");
    expect(await channelCount(own)).toBe(0);
  });

  it("a webhook with a bad URL shows the rule beside the field and nothing is written", { timeout: 120_000 }, async () => {
    await page.goto(`${dash.url}/w/${stack.workspaceId}/notifications`);
    await see(page.getByText("No notification channels yet"));
    await page.getByRole("link", { name: "New channel" }).first().click();
    await page.getByRole("link", { name: /^Webhook/ }).click();
    await page.getByLabel("Name", { exact: true }).fill("ops hook");
    await page.getByLabel("URL").fill("not a url");
    await page.getByRole("button", { name: "Create channel" }).click();
    await see(page.getByText("URL must be an http:// or https:// URL such as https://example.com/hooks/vigil"));
    expect(await page.getByLabel("URL").getAttribute("aria-invalid")).toBe("true");
    await shot(page, "channels-field-error");
    expect(await channelCount(stack.workspaceId)).toBe(0);
  });

  it("a webhook created in the UI gets the test message with its header and signature, the UI shows the receiver's answer, and no secret reaches the page", {
    timeout: 120_000,
  }, async () => {
    await page.getByLabel("URL").fill(receiver.url("/hook"));
    await page.getByRole("button", { name: "Add header" }).click();
    await page.getByLabel("Headers 1 name").fill("Authorization");
    await page.getByLabel("Headers 1 value").fill(HEADER_SECRET);
    await page.getByLabel("Signing secret (optional)").fill(SIGNING_SECRET);
    await page.getByRole("button", { name: "Create channel" }).click();
    await page.waitForURL(/\/notifications\/\d+\?created=1$/);
    channelId = Number(/\/notifications\/(\d+)/.exec(page.url())![1]);

    // Write-only: neither the server-rendered HTML nor the live page carries a secret.
    const html = await (await page.request.get(`${dash.url}/w/${stack.workspaceId}/notifications/${channelId}`)).text();
    for (const text of [html, await page.content()]) {
      expect(text).not.toContain(SIGNING_SECRET);
      expect(text).not.toContain(HEADER_SECRET.slice(7));
    }
    await see(page.getByTestId("secret-secret").getByText("set"));
    expect(await page.getByLabel("Headers 1 name").inputValue()).toBe("Authorization");
    expect(await page.getByLabel("Headers 1 value").inputValue()).toBe("");

    await page.getByRole("button", { name: "Send test notification" }).click();
    await see(page.getByTestId("test-result").getByText(/Delivered — the provider answered 200/));
    const test = receiver.got.at(-1)!;
    expect(test.path).toBe("/hook");
    expect(test.headers.authorization).toBe(HEADER_SECRET);
    expect(test.headers["x-vigil-event"]).toBe("test");
    expect(test.headers["x-vigil-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(JSON.parse(test.body)).toMatchObject({ monitor: { id: 0 }, status: "recovered" });
    await shot(page, "channels-test-sent");

    receiver.status = 500;
    receiver.reply = "receiver exploded";
    await page.getByRole("button", { name: "Send test notification" }).click();
    await see(page.getByTestId("test-result").getByText(/Not delivered — the provider answered 500/));
    await see(page.getByTestId("test-result").getByText("HTTP 500: receiver exploded"));
    receiver.status = 200;
    receiver.reply = "ok";
    await shot(page, "channels-test-failed");
  });

  it("editing with the secrets left blank keeps them", { timeout: 120_000 }, async () => {
    await page.reload();
    await page.getByLabel("Name", { exact: true }).fill("ops webhook");
    await page.getByRole("button", { name: "Save changes" }).click();
    await see(page.getByRole("status").getByText("Saved"));
    const stored = await getChannelForSending(stack.db, stack.workspaceId, channelId);
    expect(stored.name).toBe("ops webhook");
    expect(stored.config).toMatchObject({ secret: SIGNING_SECRET, headers: { Authorization: HEADER_SECRET } });
  });

  it("another workspace's channel is not found", { timeout: 60_000 }, async () => {
    for (const path of [`/w/${own}/notifications/${channelId}`, `/w/${own}/notifications/abc`]) {
      const res = await page.goto(`${dash.url}${path}`);
      expect(res?.status(), path).toBe(404);
      await see(page.getByRole("heading", { name: "Not found" }));
    }
  });

  it("the channel is attached to a monitor, disabled and enabled from the UI, and the list shows it", { timeout: 120_000 }, async () => {
    const created = await stack.api("POST", "/v1/monitors", {
      name: "checkout api",
      kind: "http",
      frequency: "30s",
      regions: ["iad"],
      retry: 0,
      timeout: "2s",
      request: { url: `http://127.0.0.1:${target.port}/health` },
    });
    expect(created.status).toBe(201);
    monitorId = created.body.id;
    // Paused, so they never alert: they only show picking by tag.
    for (const name of ["payments eu", "payments us"])
      await stack.api("POST", "/v1/monitors", {
        name,
        kind: "tcp",
        frequency: "1h",
        active: false,
        regions: ["iad"],
        tags: ["payments"],
        request: { host: "127.0.0.1", port: target.port },
      });
    await page.goto(`${dash.url}/w/${stack.workspaceId}/notifications/${channelId}`);
    await page.getByLabel("Filter monitors").fill("payments");
    await page.getByRole("button", { name: "Select all 2 matching" }).click();
    await page.getByRole("button", { name: "Save (2 selected)" }).click();
    await see(page.getByText("Saved: 2 monitors attached"));
    await page.getByRole("button", { name: "Clear matching" }).click();
    await page.getByLabel("Filter monitors").fill("checkout");
    await page.getByRole("checkbox", { name: /checkout api/ }).check();
    await page.getByRole("button", { name: "Save (1 selected)" }).click();
    await see(page.getByText("Saved: 1 monitor attached"));

    await page.getByRole("button", { name: "Disable" }).click();
    await see(page.getByText("This channel is disabled"));
    await page.goto(`${dash.url}/w/${stack.workspaceId}/notifications`);
    const row = page.getByTestId(`channel-${channelId}`);
    await see(row.getByText("disabled"));
    await see(row.getByText("checkout api"));
    expect((await getChannelForSending(stack.db, stack.workspaceId, channelId)).enabled).toBe(false);

    await row.getByRole("link", { name: "ops webhook" }).click();
    await page.getByRole("button", { name: "Enable" }).click();
    await see(page.getByRole("button", { name: "Disable" }));
    expect((await getChannelForSending(stack.db, stack.workspaceId, channelId)).enabled).toBe(true);
  });

  it("stopping the target sends exactly the spec's payload to the UI-made webhook, and the delivery log shows the retry and the answer; a refused recovery marks it failing", {
    timeout: 300_000,
  }, async () => {
    await until(
      "a first successful check",
      async () =>
        Number(
          (
            await stack.db.$client.execute({
              sql: "SELECT count(*) FROM check_result WHERE monitor_id = ? AND status = 'success'",
              args: [monitorId],
            })
          ).rows[0]![0],
        ) > 0,
      90_000,
      1000,
    );
    receiver.failNext = 1; // the first attempt is answered 503, the retry 200
    const stoppedAt = Date.now();
    await target.stop();
    await until(
      "the error alert to be accepted",
      () => receiver.alerts().some((a) => a.answered === 200 && JSON.parse(a.body).status === "error"),
      120_000,
      200,
    ).catch(async (err) => {
      const log = await stack.db.$client.execute(
        "SELECT attempt, outcome, response_code, next_retry_at, created_at FROM notification_delivery",
      );
      throw new Error(
        `${err.message}\nreceived: ${JSON.stringify(receiver.alerts().map((a) => [a.answered, a.body]))}\nlog: ${JSON.stringify(log.rows)}\nworkflows: ${stack.workflows.log.slice(-3000)}`,
      );
    });
    const alerts = receiver.alerts();
    const sent = alerts.at(-1)!;
    const payload = JSON.parse(sent.body) as Record<string, unknown>;
    // Only the spec's fields (the schema is strict), with this monitor's identity.
    expect(WebhookPayload.safeParse(payload).success).toBe(true);
    expect(payload.monitor).toEqual({ id: monitorId, name: "checkout api", url: `http://127.0.0.1:${target.port}/health` });
    expect(payload.status).toBe("error");
    expect(sent.headers["x-vigil-event"]).toBe("error");
    expect(typeof payload.errorMessage).toBe("string");
    expect(payload.cronTimestamp as number).toBeGreaterThan(stoppedAt - 31_000);
    expect(sent.headers.authorization).toBe(HEADER_SECRET);
    // The 503'd attempt and its retry carry the same body and delivery id.
    expect(alerts.map((a) => a.answered)).toEqual([503, 200]);
    expect(alerts[0]!.body).toBe(sent.body);
    expect(alerts[0]!.headers["idempotency-key"]).toBe(sent.headers["idempotency-key"]);

    await page.goto(`${dash.url}/w/${stack.workspaceId}/notifications/${channelId}`);
    const log = page.getByTestId("delivery-log");
    const rows = log.locator("tbody tr");
    await see(rows.first());
    expect(await rows.count()).toBe(2);
    expect(await textOf(rows.nth(0))).toMatch(/checkout api\s+error[\s\S]*#2\s+sent\s+200\s+—/);
    // The 503'd attempt keeps its answer, and no longer announces a retry: the retry is the row above.
    expect(await textOf(rows.nth(1))).toMatch(/checkout api\s+error[\s\S]*#1\s+failed, retried\s+503\s+—\s+HTTP 503: busy, later/);
    await shot(page, "channels-delivery-log");
    await rows.nth(0).getByRole("link").click();
    await see(page.getByText(/Attempts for checkout api's error/));

    // Back up, and the receiver refuses the recovery for good (400): the channel shows failing.
    receiver.status = 400;
    receiver.reply = "unknown route";
    await target.start();
    await until("the recovery attempt", () => receiver.alerts().some((a) => JSON.parse(a.body).status === "recovered"), 120_000, 200);
    await until(
      "the failing mark",
      async () => (await getChannelForSending(stack.db, stack.workspaceId, channelId)).failingSince !== null,
      15_000,
    );
    await page.goto(`${dash.url}/w/${stack.workspaceId}/notifications`);
    const row = page.getByTestId(`channel-${channelId}`);
    await see(row.getByTestId("failing"));
    expect(await textOf(row)).toMatch(/failed\s+400/);
    await shot(page, "channels-list");
  });
});
