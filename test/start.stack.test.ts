// `pnpm start` on the embedded defaults: every service answers /healthz, Ctrl-C stops all, data survives.
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync } from "node:fs";
import { Agent, get as httpGet, request as httpRequest, createServer as httpServer, type IncomingHttpHeaders } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { hashPagePassword } from "@vigil/core";
import { until } from "@vigil/testing";
import { launchChromium } from "@vigil/testing/browser";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "vigil-start-"));
/** Ports the OS says are free, so the test runs beside a `pnpm start` on the spec's ports. */
async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<ReturnType<typeof createServer>>((r) => {
          const s = createServer();
          s.listen(0, "127.0.0.1", () => r(s));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}
const [workflows, server, dashboard, statusPage, probe, db, dbGrpc] = await freePorts(7);
const PORTS = { workflows: workflows!, server: server!, dashboard: dashboard!, "status-page": statusPage!, "private-location": probe! };
const PORT_ENV = {
  VIGIL_WORKFLOWS_PORT: String(workflows),
  VIGIL_SERVER_PORT: String(server),
  VIGIL_DASHBOARD_PORT: String(dashboard),
  VIGIL_STATUS_PAGE_PORT: String(statusPage),
  VIGIL_PROBE_PORT: String(probe),
  VIGIL_DB_PORT: String(db),
  VIGIL_DB_GRPC_PORT: String(dbGrpc),
};

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string> = {}): Run {
  const child = spawn("pnpm", ["start"], {
    cwd: root,
    // Not the test process's own metrics token: a first start makes one under the data dir, as on a fresh machine.
    env: { ...process.env, VIGIL_METRICS_TOKEN: undefined, ...PORT_ENV, VIGIL_DATA_DIR: dataDir, FORCE_COLOR: "0", ...env },
    detached: true,
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return { child, output: () => out, exited };
}

/**
 * The service a port's /healthz names when it answers 200 within `ms`, else null. Its own connection and a
 * timer that always fires: a fetch left pending by a connection the launcher held once stalled this test for good.
 */
function healthOf(port: number, ms = 1000): Promise<string | null> {
  return new Promise((resolve) => {
    const req = httpGet({ host: "127.0.0.1", port, path: "/healthz", agent: false }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => {
        try {
          resolve(res.statusCode === 200 ? ((JSON.parse(body) as { service?: string }).service ?? null) : null);
        } catch {
          resolve(null);
        }
      });
      res.on("error", () => resolve(null));
    });
    setTimeout(() => {
      req.destroy();
      resolve(null);
    }, ms);
    req.on("error", () => resolve(null));
  });
}

/**
 * Whether a kept-alive connection left idle for `idleMs` is still the one a second request goes on: a server
 * that drops idle connections sooner resets the requests clients and proxies send on them meanwhile.
 */
async function keptAlive(port: number, idleMs: number): Promise<boolean> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise<boolean>((resolve, reject) => {
      const req = httpGet({ host: "127.0.0.1", port, path: "/healthz", agent, timeout: 10_000 }, (res) => {
        res.resume();
        res.on("end", () => resolve(req.reusedSocket && res.statusCode === 200));
      });
      req.on("timeout", () => req.destroy(new Error("no answer in 10 s")));
      req.on("error", reject);
    });
  try {
    await once();
    await new Promise((r) => setTimeout(r, idleMs));
    return await once();
  } finally {
    agent.destroy();
  }
}

async function waitHealthy(run: Run, timeoutMs = 240_000, names = Object.keys(PORTS) as (keyof typeof PORTS)[]) {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(names);
  while (pending.size > 0) {
    if (Date.now() > deadline) throw new Error(`not healthy: ${[...pending].join(", ")}\n${run.output().slice(-3000)}`);
    if (run.child.exitCode !== null) throw new Error(`pnpm start exited\n${run.output().slice(-3000)}`);
    for (const name of [...pending]) if ((await healthOf(PORTS[name])) === name) pending.delete(name);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function stop(run: Run): Promise<number | null> {
  process.kill(-run.child.pid!, "SIGINT");
  // Generous: every service shuts down cleanly, which on a loaded machine can take a while.
  const timer = setTimeout(() => process.kill(-run.child.pid!, "SIGKILL"), 90_000);
  const code = await run.exited;
  clearTimeout(timer);
  return code;
}

/** The pid of this run's process that `is` names (its environment names this test's data dir). */
function runPid(is: (argv: string[], entry: string) => boolean): number | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (is(argv, entry) && readFileSync(`/proc/${entry}/environ`, "utf8").includes(dataDir)) return Number(entry);
    } catch {}
  }
  return undefined;
}
/** The services process (setup, workflows, server, probe). */
const servicesPid = () => runPid((argv) => argv[0]!.endsWith("node") && argv.some((a) => a.endsWith("scripts/dist/local-services.js")));
/** A web app's Next server: it runs in the app's directory. */
const webPid = (app: "dashboard" | "status-page") => runPid((_, entry) => readlinkSync(`/proc/${entry}/cwd`).endsWith(`apps/${app}`));

/** The operator's `POST /` to the database, with the local run's token (.data/db-token) unless told otherwise. */
const post = (statements: string[], token: string | null = readFileSync(join(dataDir, "db-token"), "utf8").trim()) =>
  fetch(`http://127.0.0.1:${db}/`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ statements }),
  });
const sql = async (statements: string[]) => {
  const res = await post(statements);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { results: { rows: unknown[][] } }[];
};
const DB_KEY_FILES = ["db-jwt.key", "db-jwt.pub", "db-token"];

/** This run's ports: every URL it prints or sends must name one of them, never a default one. */
const OURS = new Set([workflows, server, dashboard, statusPage, probe, db, dbGrpc].map(String));
/** The loopback URLs in a text (links elsewhere, such as a library's docs, are not this install's). */
const loopbackUrls = (text: string) => [
  ...new Set([...text.matchAll(/https?:\/\/(?:127\.0\.0\.1|localhost)(?::\d+)?[^\s"'<>\\`)]*/g)].map((m) => m[0].replace(/[.,;:]+$/, ""))),
];
/** Follows a printed URL: it names this run's port and the service there answers it. */
async function follow(url: string): Promise<Response> {
  expect(OURS.has(new URL(url).port), `${url} names a port of this run`).toBe(true);
  const res = await fetch(url, { signal: AbortSignal.timeout(180_000) });
  expect(res.status, `${url} answers`).toBeLessThan(500);
  return res;
}

/**
 * With every port moved, each URL the run prints or sends leads to this install: the start's output, the
 * API's ping URL (a ping through it reaches the heartbeat), an alert's links (the monitor, the acknowledge
 * page) and the Settings page's operator curl (run as shown, it reaches the database).
 */
async function followsEveryUrl(run: Run) {
  const printed = loopbackUrls(run.output());
  expect(printed).toEqual(
    expect.arrayContaining([`http://127.0.0.1:${dashboard}`, `http://127.0.0.1:${statusPage}`, `http://127.0.0.1:${server}`]),
  );
  for (const url of printed) await follow(url);

  const apiUrl = /VIGIL_API_URL=(\S+)/.exec(run.output())![1]!;
  const token = /VIGIL_API_TOKEN=(\S+)/.exec(run.output())![1]!;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const alerts: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = httpServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      alerts.push({ headers: req.headers, body });
      res.end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const browser = await launchChromium();
  try {
    expect((await api("POST", "/v1/channels", { name: "hook", kind: "webhook", config: { url: hookUrl } })).status).toBe(201);
    const made = await api("POST", "/v1/monitors", {
      kind: "heartbeat",
      name: "nightly export",
      request: { period: "1h" },
      channels: ["hook"],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const details = await api("GET", `/v1/heartbeats/${made.body.id}`);
    const pingUrl = String(details.body.pingUrl);
    expect(pingUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server}/ping/`));
    expect((await fetch(`${pingUrl}/fail`, { method: "POST", body: "exit 1" })).status).toBe(200);
    expect((await api("GET", `/v1/heartbeats/${made.body.id}`)).body.lastPingAt).not.toBeNull();
    await until("the heartbeat's alert reached the receiver", () => alerts.length > 0, 90_000);
    const links = loopbackUrls(JSON.stringify(alerts[0]!.headers) + alerts[0]!.body).filter((u) => !u.startsWith(hookUrl));
    // The heartbeat as alerts name it (its ping endpoint, without the token) and the acknowledge link.
    expect(links).toEqual(expect.arrayContaining([`http://127.0.0.1:${server}/ping/`]));
    const ack = links.find((u) => u.includes("/ack/"));
    expect(ack, links.join(" ")).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${dashboard}/ack/`));
    for (const url of links.filter((u) => u !== ack)) await follow(url);
    expect(await (await follow(ack!)).text()).toContain("nightly export");

    // The operator's curl on the Settings page, run as shown (beside the run's .data), reaches this database.
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${dashboard}/signin`);
    await page.getByLabel("Email").fill("owner@example.com");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.waitForURL(/\/signin\/check/);
    let link = "";
    await until("the sign-in link in the dashboard's log", () => {
      link = /sign-in link for owner@example\.com: (http[^"\s]+)/.exec(run.output())?.[1] ?? "";
      return link !== "";
    });
    expect(OURS.has(new URL(link).port), link).toBe(true);
    await page.goto(link);
    // The heartbeat's page shows (and "Copy URL" copies) the same ping URL.
    await page.goto(`http://127.0.0.1:${dashboard}/w/1/monitors/${made.body.id}`);
    expect(await page.getByTestId("ping-url").textContent()).toBe(pingUrl);
    await page.goto(`http://127.0.0.1:${dashboard}/w/1/settings`);
    const curl = (await page
      .locator("pre", { hasText: /^curl -s / })
      .first()
      .textContent())!;
    expect(curl).toContain(`curl -s http://127.0.0.1:${db}/ `);
    const beside = mkdtempSync(join(tmpdir(), "vigil-operator-"));
    symlinkSync(dataDir, join(beside, ".data"));
    const answer = execFileSync("sh", ["-c", curl], { cwd: beside, encoding: "utf8", timeout: 30_000 });
    expect(answer).toMatch(/"results"/);
    expect(answer).not.toMatch(/error/i);
    rmSync(beside, { recursive: true, force: true });
  } finally {
    await browser.close();
    await new Promise((r) => receiver.close(r));
  }
}

/** A form POST from `from` (a loopback address of its own): its status and where it sends the browser. */
function postFrom(from: string, url: string, form: Record<string, string>): Promise<{ status: number; location: string }> {
  return new Promise((resolve, reject) => {
    const body = new URLSearchParams(form).toString();
    const headers = { "content-type": "application/x-www-form-urlencoded", "content-length": String(body.length) };
    const req = httpRequest(url, { method: "POST", localAddress: from, agent: false, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, location: String(res.headers.location ?? "") }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Through the launcher, each client is its own: wrong passwords on a protected page from 127.0.0.2 lock
 * 127.0.0.2 out, and 127.0.0.3 (the page's owner, say) still gets in.
 */
async function lockoutIsPerClient(run: Run) {
  const apiUrl = /VIGIL_API_URL=(\S+)/.exec(run.output())![1]!;
  const token = /VIGIL_API_TOKEN=(\S+)/.exec(run.output())![1]!;
  const made = await fetch(`${apiUrl}/v1/status-pages`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ slug: "members-only", title: "Members only" }),
  });
  expect(made.status, await made.clone().text()).toBe(201);
  // Set in the database: the API refuses a password here ("password-protection: not enabled") though setup
  // gave the workspace the unlimited preset.
  const hash = await hashPagePassword("the right one");
  await sql([`UPDATE status_page SET password_hash = '${hash}' WHERE slug = 'members-only'`]);
  const unlock = `http://127.0.0.1:${statusPage}/members-only/unlock`;
  for (let i = 0; i < 5; i++) expect((await postFrom("127.0.0.2", unlock, { password: "guess" })).location).toMatch(/auth=wrong/);
  expect((await postFrom("127.0.0.2", unlock, { password: "the right one" })).location).toMatch(/auth=locked/);
  expect((await postFrom("127.0.0.3", unlock, { password: "guess" })).location).toMatch(/auth=wrong/);
  const owner = await postFrom("127.0.0.3", unlock, { password: "the right one" });
  expect(owner.status).toBe(303);
  expect(owner.location).not.toMatch(/auth=/);
}

/** A scrape of `port`'s /metrics, with `token` as its bearer when given. */
async function scrape(port: number, token?: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, text: await res.text() };
}

let current: Run | undefined;
afterAll(async () => {
  if (current && current.child.exitCode === null && current.child.signalCode === null) await stop(current);
  rmSync(dataDir, { recursive: true, force: true });
});

describe("pnpm start", () => {
  // Above the sum of its steps' own bounds (about 900 s on a loaded machine), so a slow step fails with its own message.
  it("brings every service up, stops them all on Ctrl-C, and a second start finds the same data", { timeout: 960_000 }, async () => {
    for (const port of [...Object.values(PORTS), db!, dbGrpc!]) {
      await expect(fetch(`http://127.0.0.1:${port}/healthz`), `port ${port} is already taken`).rejects.toThrow();
    }
    current = start();
    await waitHealthy(current);
    const first = current.output();
    expect(first).toMatch(/\[setup\] Created workspace 1 "Local" with the UNLIMITED limits preset/);
    expect(first).toMatch(/\[server\] .*"msg":"listening"/);
    expect(first).toMatch(/VIGIL_API_TOKEN=vgl_key_/);
    await followsEveryUrl(current);
    await lockoutIsPerClient(current);
    await sql(["INSERT INTO workspace (name) VALUES ('kept across restarts')"]);
    // The web apps keep an idle connection past Node's 5 s default, as a proxy in front expects.
    expect(await Promise.all([keptAlive(PORTS.dashboard, 6000), keptAlive(PORTS["status-page"], 6000)])).toEqual([true, true]);
    // Keys on disk are readable by their owner only (the database's public key is public).
    expect(statSync(join(dataDir, "local.json")).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, "auth-secret")).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, "secret-key")).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, "db-jwt.key")).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, "db-token")).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, "db-jwt.pub")).mode & 0o777).toBe(0o644);
    expect(statSync(join(dataDir, "metrics-token")).mode & 0o777).toBe(0o600);
    expect(first).toContain(`/metrics answers with Authorization: Bearer <the token in ${join(dataDir, "metrics-token")}>`);
    // The database answers only with the token: what reaches its port without it runs nothing.
    const refused = await post(["SELECT name FROM workspace"], null);
    expect(refused.status).toBe(401);
    // The operator's way in: pnpm db:sql finds the local run's token by itself.
    const dbSql = spawnSync("pnpm", ["-s", "db:sql", "SELECT name FROM workspace ORDER BY id"], {
      cwd: root,
      env: {
        ...process.env,
        ...PORT_ENV,
        VIGIL_DATA_DIR: dataDir,
        DATABASE_URL: "",
        DATABASE_AUTH_TOKEN: "",
        DATABASE_AUTH_TOKEN_FILE: "",
      },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(dbSql.stdout, dbSql.stderr).toBe("name\n--------------------\nLocal\nkept across restarts\n(2 rows)\n");

    // The services process crashing takes neither the database nor the web apps down, and it comes back by itself.
    const pid = servicesPid();
    expect(pid).toBeDefined();
    process.kill(pid!, "SIGKILL");
    await new Promise((r) => setTimeout(r, 500));
    for (const name of ["dashboard", "status-page"] as const) {
      expect(await healthOf(PORTS[name], 10_000), `${name} still up`).toBe(name);
    }
    await waitHealthy(current, 60_000);
    expect(servicesPid()).not.toBe(pid);
    expect(current.output()).toMatch(/\[services\] exited with code SIGKILL[\s\S]*\[services\] restarted/);

    expect(await stop(current), current.output().slice(-3000)).toBe(0);
    for (const port of Object.values(PORTS)) {
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    }

    // A data dir from before the database had keys: the next start makes them and everything runs on them.
    const oldToken = readFileSync(join(dataDir, "db-token"), "utf8");
    for (const file of DB_KEY_FILES) rmSync(join(dataDir, file));
    current = start({ VIGIL_WEB_IDLE_S: "3" });
    await waitHealthy(current, 240_000, ["workflows", "server", "private-location"]);
    // Nobody has opened the web apps: neither runs. The first request starts one and gets its real answer.
    expect(webPid("dashboard")).toBeUndefined();
    expect(webPid("status-page")).toBeUndefined();
    // A scrape of a stopped app is answered by the launcher, only with the run's metrics token, and starts nothing.
    const metricsToken = readFileSync(join(dataDir, "metrics-token"), "utf8").trim();
    expect((await scrape(PORTS["status-page"])).status).toBe(401);
    const scraped = await scrape(PORTS["status-page"], metricsToken);
    expect(scraped.status).toBe(200);
    expect(scraped.text).toContain('vigil_web_app_running{service="status-page"} 0');
    expect(webPid("status-page")).toBeUndefined();
    const signin = await fetch(`http://127.0.0.1:${PORTS.dashboard}/signin`);
    expect(signin.status).toBe(200);
    expect(await signin.text()).toMatch(/<html/i);
    const firstWeb = webPid("dashboard");
    expect(firstWeb).toBeDefined();
    expect(webPid("status-page")).toBeUndefined();
    // Idle for VIGIL_WEB_IDLE_S, it stops (not a crash: no restart), and the next request starts it again.
    const log = current;
    // On a loaded machine Next can take long to exit: the launcher's log says where it stands if this times out.
    await until(
      "the idle dashboard stopped",
      () => webPid("dashboard") === undefined && /\[dashboard\] stopped after 3 s without a request/.test(log.output()),
      120_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; dashboard pid ${webPid("dashboard")}; launcher log:\n${log.output().slice(-3000)}`);
    });
    expect(current.output()).not.toMatch(/\[dashboard\] exited with code/);
    await waitHealthy(current, 120_000);
    expect(webPid("dashboard")).not.toBe(firstWeb);
    expect(current.output()).not.toMatch(/Created workspace/);
    expect(current.output()).not.toMatch(/Created private location/);
    const [res] = await sql(["SELECT name FROM workspace ORDER BY id"]);
    expect(res!.results.rows).toEqual([["Local"], ["kept across restarts"]]);
    expect(readFileSync(join(dataDir, "db-token"), "utf8")).not.toBe(oldToken);
    expect((await post(["SELECT 1"], oldToken)).status).toBe(401);
    await stop(current);
  });
});
