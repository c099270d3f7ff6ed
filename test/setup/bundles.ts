// The stack project's globalSetup: the Node services' bundles, built as their apps' `build` scripts build them
// for production (apps/<app>/dist), once per test run and only when a source they may include changed.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stop } from "esbuild";
import { buildNode, hashSourceTree } from "../../scripts/build-node";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const APPS = ["server", "workflows", "private-location", "cli"];
const CACHE = join(ROOT, "node_modules/.cache/vigil");
const STAMP = join(CACHE, "service-bundles.hash");
const LOCK = join(CACHE, "service-bundles.lock");

/** `tsx ../../scripts/build-node.ts main=src/main.ts …` in the app's package.json: the `name=entry` arguments. */
function buildSpecs(app: string): string[] {
  const script = (JSON.parse(readFileSync(join(ROOT, "apps", app, "package.json"), "utf8")) as { scripts: { build: string } }).scripts
    .build;
  const words = script.split(/\s+/);
  const at = words.findIndex((w) => w.endsWith("scripts/build-node.ts"));
  if (at === -1) throw new Error(`apps/${app}'s build script does not run scripts/build-node.ts: ${script}`);
  return words.slice(at + 1);
}

/** Everything a bundle can contain: the apps' and packages' sources, the bundler script, the lockfile. */
function sourceHash(): string {
  const hash = createHash("sha256");
  for (const app of APPS) hashSourceTree(hash, join(ROOT, "apps", app));
  hashSourceTree(hash, join(ROOT, "packages"));
  hash.update(readFileSync(join(ROOT, "scripts/build-node.ts")));
  hash.update(readFileSync(join(ROOT, "pnpm-lock.yaml")));
  return hash.digest("hex");
}

const outputs = () => APPS.flatMap((app) => buildSpecs(app).map((spec) => join(ROOT, "apps", app, "dist", `${spec.split("=")[0]}.js`)));

/** Builds the bundles unless the stamp says they are of these sources; a lock keeps two test runs apart. */
export async function buildServiceBundles(log: (line: string) => void = () => {}): Promise<void> {
  mkdirSync(CACHE, { recursive: true });
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // A run killed while building leaves its lock: stale after the longest build.
      if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > 5 * 60_000) rmSync(LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error("timed out waiting for another test run's service bundles");
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    const hash = sourceHash();
    if (existsSync(STAMP) && readFileSync(STAMP, "utf8") === hash && outputs().every((f) => existsSync(f))) return;
    const started = Date.now();
    rmSync(STAMP, { force: true });
    await Promise.all(APPS.map((app) => buildNode(join(ROOT, "apps", app), buildSpecs(app))));
    writeFileSync(STAMP, hash);
    log(`service bundles built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
    await stop();
  }
}

export default async function setup(): Promise<void> {
  await buildServiceBundles((line) => console.log(line));
}
