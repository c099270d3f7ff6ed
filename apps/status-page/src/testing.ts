// Real processes for the status page's tests and bench: one `next build` per source tree, `next start`
// on a free port against a real sqld, a loopback e-mail API, and data seeded through core.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { createMonitor, createPrivateLocation, createWorkspace, evaluateMonitor, recordResults, setLimits } from "@vigil/core";
import { checkResult, type Db } from "@vigil/db-schema";
import { freePort } from "@vigil/db-schema/testing";
import { ulid } from "ulid";

export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
export const APP = join(ROOT, "apps/status-page");
const SOURCES = [
  "apps/status-page",
  "packages/core/src",
  "packages/db-schema/src",
  "packages/limits/src",
  "packages/notifier/src",
  "packages/config/src",
  "packages/api-contract/src",
  "packages/analytics/src",
];
const SKIP_IN_APP = new Set(["node_modules", ".next", ".turbo", "src", ".next-build.lock"]);

function sourceHash(): string {
  const h = createHash("sha256");
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (SKIP_IN_APP.has(name) && dir === APP) continue;
      if (name === "node_modules" || name.endsWith(".test.ts")) continue;
      const p = join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else h.update(relative(ROOT, p)).update(readFileSync(p));
    }
  };
  for (const s of SOURCES) walk(join(ROOT, s));
  return h.digest("hex");
}

/** `next build` once per source tree; a lock keeps two test files (or a bench) from building at once. */
export async function buildStatusPage(): Promise<void> {
  const lock = join(APP, ".next-build.lock");
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 10 * 60_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error("timed out waiting for another status-page build");
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    const hash = sourceHash();
    const stamp = join(APP, ".next/vigil-source-hash");
    if (existsSync(join(APP, ".next/BUILD_ID")) && existsSync(stamp) && readFileSync(stamp, "utf8") === hash) return;
    execFileSync(join(APP, "node_modules/.bin/next"), ["build"], {
      cwd: APP,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
      timeout: 9 * 60_000,
    });
    writeFileSync(stamp, hash);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export async function until<T>(
  what: string,
  check: () => Promise<T | false | null | undefined> | T | false | null | undefined,
  timeoutMs = 30_000,
  every = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

export class Proc {
  log = "";
  exit: Promise<number | null>;
  constructor(readonly child: ChildProcess) {
    child.stdout?.on("data", (d) => (this.log = (this.log + d).slice(-200_000)));
    child.stderr?.on("data", (d) => (this.log = (this.log + d).slice(-200_000)));
    this.exit = new Promise((r) => child.once("exit", (code) => r(code)));
  }
  async stop() {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill("SIGKILL");
    await this.exit;
  }
}

export interface StatusSite {
  url: string;
  proc: Proc;
  stop(): Promise<void>;
}

/** `next start` on a free port with exactly `env` (plus PATH/HOME); resolves once /healthz answers. */
export async function startStatusPage(env: Record<string, string>, port?: number): Promise<StatusSite> {
  const p = port ?? (await freePort());
  const proc = new Proc(
    spawn(process.execPath, [join(APP, "node_modules/next/dist/bin/next"), "start", "-p", String(p), "-H", "127.0.0.1"], {
      cwd: APP,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  const url = `http://127.0.0.1:${p}`;
  await until(
    "status page /healthz",
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`status page exited:\n${proc.log.slice(-3000)}`);
      return fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    },
    60_000,
  );
  return { url, proc, stop: () => proc.stop() };
}

export interface CapturedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** A loopback stand-in for the e-mail provider's API (Resend-shaped): keeps every mail we send. */
export async function startMailApi() {
  const mails: CapturedMail[] = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    if (req.method === "POST" && req.url === "/emails") mails.push(JSON.parse(body) as CapturedMail);
    res.writeHead(200, { "content-type": "application/json" }).end('{"id":"sent"}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    mails,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A workspace with unlimited limits and one probe location, as `pnpm start` sets up. */
export async function seedWorkspace(db: Db, name = "Acme") {
  const ws = (await createWorkspace(db, { name }, "operator")).id;
  await setLimits(db, ws, "unlimited", "operator");
  const { location } = await createPrivateLocation(db, ws, { name: "iad", region: "iad" }, "operator");
  return { ws, location: { id: location.id, workspaceId: ws, region: "iad" } };
}

export async function newMonitor(db: Db, ws: number, name: string) {
  return createMonitor(
    db,
    ws,
    { name, kind: "tcp", frequency: "1m", regions: ["iad"], request: { host: "127.0.0.1", port: 9 } },
    "operator",
  );
}

/** One check result through core's real ingest, then the real evaluation: the monitor's status moves. */
export async function reportCheck(
  db: Db,
  location: { id: number; workspaceId: number; region: string },
  monitorId: number,
  status: "success" | "error",
  at = Date.now(),
) {
  const cronTimestamp = Math.floor(at / 60_000) * 60_000;
  await recordResults(db, location, {
    results: [
      {
        id: ulid(),
        monitorId,
        cronTimestamp,
        startedAt: cronTimestamp,
        status,
        latencyMs: status === "error" ? 0 : 42,
        attempts: status === "error" ? 4 : 1,
        ...(status === "error" ? { errorMessage: "connection refused" } : {}),
      },
    ],
  });
  return evaluateMonitor(db, monitorId, Date.now());
}

/**
 * `days` days of hourly history per monitor, written straight into the results table (already
 * evaluated), with a bad stretch on the days listed in `badDays` (0 = today).
 */
export async function seedHistory(
  db: Db,
  workspaceId: number,
  locationId: number,
  monitorIds: number[],
  days = 90,
  badDays: Record<number, number[]> = {},
) {
  const HOUR = 3_600_000;
  const now = Date.now();
  const rows: (typeof checkResult.$inferInsert)[] = [];
  for (const monitorId of monitorIds) {
    const bad = new Set(badDays[monitorId] ?? []);
    for (let h = days * 24 - 1; h >= 1; h--) {
      const t = Math.floor((now - h * HOUR) / HOUR) * HOUR;
      const daysAgo = Math.floor((Math.floor(now / 86_400_000) * 86_400_000 - Math.floor(t / 86_400_000) * 86_400_000) / 86_400_000);
      const error = bad.has(daysAgo) && h % 24 < 6;
      rows.push({
        id: ulid(t),
        workspaceId,
        monitorId,
        locationId,
        region: "iad",
        cronTimestamp: t,
        startedAt: t,
        status: error ? "error" : "success",
        latencyMs: error ? 0 : 40 + (h % 17),
        attempts: 1,
        evaluatedAt: t,
      });
    }
  }
  for (let i = 0; i < rows.length; i += 400)
    await db
      .insert(checkResult)
      .values(rows.slice(i, i + 400))
      .onConflictDoNothing();
}
