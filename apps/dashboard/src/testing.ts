// Real processes for the dashboard's browser tests: one `next build` per source tree, `next start`
// on a free port, a loopback email API that keeps what the dashboard sends, and Chromium.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@vigil/db-schema/testing";
import { type Browser, chromium, type Page } from "playwright-core";

export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
export const APP = join(ROOT, "apps/dashboard");
const SKIP = new Set(["node_modules", ".next", ".turbo", "src", "next-env.d.ts", "tsconfig.json", ".next-build.lock"]);

/**
 * The dashboard's own files plus the committed tree of packages/: another engineer's uncommitted
 * edit to a package does not force a rebuild, a commit does (and CI always starts clean).
 */
function sourceHash(): string {
  const h = createHash("sha256");
  h.update(execFileSync("git", ["rev-parse", "HEAD:packages"], { cwd: ROOT, encoding: "utf8" }));
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      if ((SKIP.has(name) && dir === APP) || name === "node_modules") continue;
      const p = join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else h.update(relative(ROOT, p)).update(readFileSync(p));
    }
  };
  walk(APP);
  return h.digest("hex");
}

/** `next build` once per source tree: test files (and runs) share it; a lock keeps two files from building at once. */
export async function buildDashboard(): Promise<void> {
  const lock = join(APP, ".next-build.lock");
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than the build timeout belongs to a run that died.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 10 * 60_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error("timed out waiting for another dashboard build");
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    const hash = sourceHash();
    const stamp = join(APP, ".next/vigil-source-hash");
    if (existsSync(join(APP, ".next/BUILD_ID")) && existsSync(stamp) && readFileSync(stamp, "utf8") === hash) return;
    for (;;) {
      try {
        execFileSync(join(APP, "node_modules/.bin/next"), ["build"], {
          cwd: APP,
          stdio: ["ignore", "pipe", "pipe"],
          env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
          timeout: 9 * 60_000,
        });
        break;
      } catch (err) {
        // `pnpm start` (turbo) may be building the same app right now: wait for it, then build ours.
        const out = `${(err as { stdout?: Buffer }).stdout ?? ""}${(err as { stderr?: Buffer }).stderr ?? ""}`;
        if (!out.includes("Another next build process is already running") || Date.now() > deadline)
          throw new Error(`next build failed:\n${out.slice(-4000)}`);
        await new Promise((r) => setTimeout(r, 3000));
      }
    }
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

/** A process of ours; its output is kept for assertions and for failure messages. */
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

export interface Dashboard {
  url: string;
  proc: Proc;
  stop(): Promise<void>;
}

const BASE_ENV: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NEXT_TELEMETRY_DISABLED: "1" };

/** Spawns `next start` with exactly `env` (plus PATH/HOME); does not wait. */
export function spawnDashboard(port: number, env: Record<string, string>): Proc {
  return new Proc(
    spawn(process.execPath, [join(APP, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
      cwd: APP,
      env: { ...BASE_ENV, ...env } as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
}

export async function startDashboard(env: Record<string, string>): Promise<Dashboard> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = spawnDashboard(port, { AUTH_URL: url, ...env });
  await until(
    "dashboard /healthz",
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`dashboard exited:\n${proc.log.slice(-3000)}`);
      return fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    },
    60_000,
  );
  return { url, proc, stop: () => proc.stop() };
}

/** A service of the repo started as one process (node --import tsx), like `pnpm start` does. */
export async function startService(entry: string, env: Record<string, string>, healthPort?: number): Promise<Proc> {
  const proc = new Proc(
    spawn(process.execPath, ["--import", "tsx", entry], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] }),
  );
  return healthPort ? healthy(proc, healthPort, entry) : proc;
}

/** Waits for a started service's /healthz; a loaded machine (a build next door) can take a while. */
export async function healthy(proc: Proc, port: number, what = `service on :${port}`, timeoutMs = 120_000): Promise<Proc> {
  await until(
    `${what} healthy`,
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`${what} exited:\n${proc.log.slice(-3000)}`);
      return fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    },
    timeoutMs,
  );
  return proc;
}

/** A real private-location probe for the location whose key is `key`, polling `serverUrl`. */
export async function startProbe(key: string, serverUrl: string, dataDir: string): Promise<Proc> {
  const port = await freePort();
  const env = { SERVICE_KEY: key, SERVICE_INGEST_URL: serverUrl, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" };
  return startService("apps/private-location/src/main.ts", { ...env, PROBE_DATA_DIR: dataDir, PROBE_WAIT_MS: "2000" }, port);
}

export interface Mail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  auth: string;
}

/** A Resend-shaped email API on loopback: keeps every mail the dashboard sends. */
export async function startMailApi() {
  const mails: Mail[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/emails") {
        mails.push({ ...(JSON.parse(body) as Omit<Mail, "auth">), auth: String(req.headers.authorization ?? "") });
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: `m${mails.length}` }));
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    mails,
    /** The first link in the newest mail to `to` whose text matches `pattern`. */
    async linkFor(to: string, pattern: RegExp, after = 0): Promise<string> {
      const mail = await until(
        `a mail to ${to}`,
        () => mails.slice(after).findLast((m) => m.to.includes(to) && pattern.test(m.text)),
        15_000,
      );
      return /https?:\/\/\S+/.exec(mail.text)![0];
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-quic",
      "--no-first-run",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

const SHOTS = join(ROOT, "docs/screenshots");
/** Full-page screenshot under docs/screenshots/dashboard-<name>.png */
export async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `dashboard-${name}.png`), fullPage: true });
}
