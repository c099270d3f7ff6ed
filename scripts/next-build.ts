// One `next build` per source tree of a web app, shared by `pnpm start`, every test file and bench: a lock keeps
// two builds apart, and a stamp of the sources skips a build that is current. Nothing else may build `.next`
// (turbo included): a rebuild under a running `next start` removes the chunks it is serving.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SKIP_IN_APP = new Set(["node_modules", ".next", ".turbo", "src", "next-env.d.ts", ".next-build.lock"]);
const TIMEOUT_MS = 10 * 60_000;

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

/** Builds `apps/<name>` unless its current build is of these sources. */
export async function buildNextApp(name: string): Promise<void> {
  const app = join(ROOT, "apps", name);
  const lock = join(app, ".next-build.lock");
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock whose builder has exited (a `pnpm start` stopped mid-build) or older than the build timeout is free.
      if (existsSync(lock) && (builderGone(lock) || Date.now() - statSync(lock).mtimeMs > TIMEOUT_MS))
        rmSync(lock, { recursive: true, force: true });
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
      try {
        execFileSync(join(app, "node_modules/.bin/next"), ["build"], {
          cwd: app,
          stdio: ["ignore", "pipe", "pipe"],
          env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
          timeout: TIMEOUT_MS - 60_000,
        });
        break;
      } catch (err) {
        // A `next build` started by hand (or an older checkout) holds Next's own lock: wait for it, then build ours.
        const out = `${(err as { stdout?: Buffer }).stdout ?? ""}${(err as { stderr?: Buffer }).stderr ?? ""}`;
        if (!out.includes("Another next build process is already running") || Date.now() > deadline)
          throw new Error(`next build of ${name} failed:\n${out.slice(-4000)}`);
        await new Promise((r) => setTimeout(r, 3000));
      }
    }
    writeFileSync(stamp, hash);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
