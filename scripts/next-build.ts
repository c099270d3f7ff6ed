// The web apps' build for `pnpm start`, with its progress on screen: each app's Next step as it starts
// ("Creating an optimized production build", "Generating static pages (4/12)"…) and the time so far, plus
// a line every 20 s while a step runs long, so a first build on a busy machine never looks hung.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { ROOT } from "./local";

/** Next's and turbo's lines worth showing; the rest (route tables, warnings) stays in the captured output. */
const STEP =
  /(Creating an optimized production build|Compiled successfully|Compiled with warnings|Linting|Checking validity of types|Collecting page data|Generating static pages|Collecting build traces|Finalizing page optimization|cache hit|cache miss|Running TypeScript|Build error|Failed to compile)/i;

const elapsed = (since: number) => {
  const s = Math.round((Date.now() - since) / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
};

export function buildWebApps(log: (line: string) => void = console.log): Promise<{ ok: boolean; out: string }> {
  const started = Date.now();
  const child = spawn(
    "pnpm",
    ["exec", "turbo", "run", "build", "--filter=@vigil/dashboard", "--filter=@vigil/status-page", "--output-logs=full"],
    { cwd: ROOT, env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1", FORCE_COLOR: "0" } },
  );
  const out: string[] = [];
  let last = Date.now();
  let step = "starting";
  const onLine = (raw: string) => {
    out.push(raw);
    // "@vigil/dashboard:build: ✓ Compiled successfully in 41s" → "dashboard: ✓ Compiled successfully in 41s"
    const m = /^@vigil\/([\w-]+):build:\s*(.*)$/.exec(raw.trim());
    const app = m?.[1] ?? "build";
    const text = (m?.[2] ?? raw).replace(/\s+/g, " ").trim();
    if (!STEP.test(text)) return;
    step = `${app}: ${text}`;
    last = Date.now();
    log(`vigil: [${elapsed(started)}] ${step}`);
  };
  createInterface({ input: child.stdout }).on("line", onLine);
  createInterface({ input: child.stderr }).on("line", onLine);
  const beat = setInterval(() => {
    if (Date.now() - last >= 20_000) log(`vigil: [${elapsed(started)}] still working (${step})…`);
  }, 20_000);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearInterval(beat);
      if (code === 0) log(`vigil: [${elapsed(started)}] the dashboard and status page are built`);
      resolve({ ok: code === 0, out: out.join("\n") });
    });
  });
}
