// One `next build` per source tree of a web app, shared by `pnpm start`, every test file and bench: a lock keeps
// two builds apart, and a stamp of the sources skips a build that is current. Nothing else may build `.next`
// (turbo included): a rebuild under a running `next start` removes the chunks it is serving.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SKIP_IN_APP = new Set(["node_modules", ".next", ".turbo", "src", "next-env.d.ts", ".next-build.lock"]);
const TIMEOUT_MS = 10 * 60_000;

/**
 * `next start` flags wherever it runs here (`pnpm start`, tests, benches): idle connections are kept 65 s, longer
 * than a proxy's usual 60 s, so a client or proxy never reuses one just as the app closes it (Node's default: 5 s).
 */
export const NEXT_START_FLAGS = ["--keepAliveTimeout", "65000"];

/** The app's own files, the packages' sources (tests aside) and the build's env: a change to any means a new build. */
function sourceHash(app: string): string {
  const h = createHash("sha256");
  const walk = (dir: string, top: boolean) => {
    for (const name of readdirSync(dir).sort()) {
      if ((top && dir === app && SKIP_IN_APP.has(name)) || name === "node_modules" || name.endsWith(".test.ts")) continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p, top);
      else h.update(relative(ROOT, p)).update(readFileSync(p));
    }
  };
  walk(app, true);
  for (const pkg of readdirSync(join(ROOT, "packages")).sort()) {
    const src = join(ROOT, "packages", pkg, "src");
    if (existsSync(src)) walk(src, false);
  }
  for (const [k, v] of Object.entries(process.env).sort()) if (k === "NEXT_OUTPUT" || k.startsWith("NEXT_PUBLIC_")) h.update(`${k}=${v}`);
  return h.digest("hex");
}

/** Next's lines worth showing while it builds; the rest (route tables, warnings) stays in the captured output. */
const STEP =
  /(Creating an optimized production build|Compiled successfully|Compiled with warnings|Linting|Checking validity of types|Running TypeScript|Collecting page data|Generating static pages|Collecting build traces|Finalizing page optimization|Build error|Failed to compile)/i;

const elapsed = (since: number) => {
  const s = Math.round((Date.now() - since) / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
};

/**
 * `next build` in `app`; with `log`, each step as Next starts it and a line every 20 s while one runs long,
 * so a first build on a busy machine never looks hung.
 */
function nextBuild(app: string, name: string, log?: (line: string) => void): Promise<{ ok: boolean; out: string }> {
  const started = Date.now();
  const child = spawn(join(app, "node_modules/.bin/next"), ["build"], {
    cwd: app,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", FORCE_COLOR: "0" },
  });
  const killer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS - 60_000);
  const out: string[] = [];
  let last = Date.now();
  let step = "starting";
  const onLine = (raw: string) => {
    out.push(raw);
    const text = raw.replace(/\s+/g, " ").trim();
    if (!log || !STEP.test(text)) return;
    step = text;
    last = Date.now();
    log(`vigil: [${elapsed(started)}] ${name}: ${step}`);
  };
  createInterface({ input: child.stdout! }).on("line", onLine);
  createInterface({ input: child.stderr! }).on("line", onLine);
  const beat =
    log && setInterval(() => Date.now() - last >= 20_000 && log(`vigil: [${elapsed(started)}] ${name}: still working (${step})…`), 20_000);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearTimeout(killer);
      if (beat) clearInterval(beat);
      if (code === 0) log?.(`vigil: [${elapsed(started)}] ${name} is built`);
      resolve({ ok: code === 0, out: out.join("\n") });
    });
  });
}

/** Whether the process that took `lock` no longer runs (a lock just taken may not name its pid yet: not gone). */
function builderGone(lock: string): boolean {
  try {
    const pid = Number(readFileSync(join(lock, "pid"), "utf8"));
    if (!pid) return false;
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** How long `lock` has been held; 0 when its builder has just released it. */
function lockAgeMs(lock: string): number {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return 0;
  }
}

/** Builds `apps/<name>` unless its current build is of these sources; `log` shows the build's progress. */
export async function buildNextApp(name: string, log?: (line: string) => void): Promise<void> {
  const app = join(ROOT, "apps", name);
  const lock = join(app, ".next-build.lock");
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock whose builder has exited (a `pnpm start` stopped mid-build) or older than the build timeout is free.
      if (existsSync(lock) && (builderGone(lock) || lockAgeMs(lock) > TIMEOUT_MS)) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for another ${name} build`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    writeFileSync(join(lock, "pid"), String(process.pid));
    const hash = sourceHash(app);
    const stamp = join(app, ".next/vigil-source-hash");
    if (existsSync(join(app, ".next/BUILD_ID")) && existsSync(stamp) && readFileSync(stamp, "utf8") === hash) return;
    for (;;) {
      const build = await nextBuild(app, name, log);
      if (build.ok) break;
      // A `next build` started by hand (or an older checkout) holds Next's own lock: wait for it, then build ours.
      if (!build.out.includes("Another next build process is already running") || Date.now() > deadline)
        throw new Error(`next build of ${name} failed:\n${build.out.slice(-4000)}`);
      log?.(`vigil: another build of the ${name} is running; waiting for it…`);
      await new Promise((r) => setTimeout(r, 3000));
    }
    writeFileSync(stamp, hash);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
