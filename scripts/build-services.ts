// `pnpm start` runs compiled JavaScript: the server, workflows and the local setup/probe bundled with
// esbuild (build-node.ts), rebuilt only when a source they may include changed (a content hash stamp).
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stop } from "esbuild";
import { buildNode } from "./build-node";
import { ROOT } from "./local";

const APPS = ["server", "workflows"] as const;
/** What each service of the local run starts, relative to the repository root. */
export const SERVICE_BUNDLES = {
  server: "apps/server/dist/main.js",
  workflows: "apps/workflows/dist/main.js",
  setup: "scripts/dist/setup-local.js",
  probe: "scripts/dist/local-probe.js",
};
const STAMP = join(ROOT, "scripts/dist/.source-hash");
const SKIP = new Set(["node_modules", "dist", ".next", ".turbo", ".data"]);

function hashTree(hash: ReturnType<typeof createHash>, dir: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (SKIP.has(e.name) || e.name.endsWith(".test.ts")) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) hashTree(hash, p);
    else if (e.isFile()) hash.update(p).update(readFileSync(p));
  }
}

/** Everything a bundle can contain: our sources (any package may be imported), the lockfile, the bundler. */
function sourceHash(): string {
  const hash = createHash("sha256");
  for (const dir of [...APPS.map((a) => `apps/${a}`), "apps/private-location", "packages", "scripts"]) hashTree(hash, join(ROOT, dir));
  hash.update(readFileSync(join(ROOT, "pnpm-lock.yaml")));
  return hash.digest("hex");
}

/** The entries an app's own `build` script bundles (`… build-node.ts main=src/main.ts …`), so dist matches `pnpm build`. */
function buildSpecs(app: string): string[] {
  const script: string = JSON.parse(readFileSync(join(ROOT, "apps", app, "package.json"), "utf8")).scripts.build;
  return script.split(/\s+/).filter((a) => a.includes("="));
}

export async function buildServices(): Promise<void> {
  const hash = sourceHash();
  const fresh =
    existsSync(STAMP) && readFileSync(STAMP, "utf8") === hash && Object.values(SERVICE_BUNDLES).every((f) => existsSync(join(ROOT, f)));
  if (fresh) return;
  await Promise.all([
    ...APPS.map((app) => buildNode(join(ROOT, "apps", app), buildSpecs(app))),
    buildNode(join(ROOT, "scripts"), ["setup-local=setup-local.ts", "local-probe=local-probe.ts"]),
  ]);
  writeFileSync(STAMP, hash);
  // esbuild's service process would otherwise stay beside the launcher for the whole run (~140 MB).
  await stop();
}
