// `pnpm start` runs compiled JavaScript: the launcher and the local services (setup, workflows, server, probe)
// bundled with esbuild (build-node.ts), rebuilt only when a source they may include changed (a content hash stamp).
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stop } from "esbuild";
import { buildNode, hashSourceTree } from "./build-node";
import { ROOT } from "./local";

/** What the local run starts, relative to the repository root. */
export const SERVICE_BUNDLES = {
  launcher: "scripts/dist/launcher.js",
  services: "scripts/dist/local-services.js",
  clientPreload: "scripts/dist/client-preload.js",
};
const STAMP = join(ROOT, "scripts/dist/.source-hash");

/** Everything a bundle can contain: our sources (any package may be imported), the lockfile, the bundler. */
function sourceHash(): string {
  const hash = createHash("sha256");
  for (const dir of ["apps/server", "apps/workflows", "apps/private-location", "packages", "scripts"])
    hashSourceTree(hash, join(ROOT, dir));
  hash.update(readFileSync(join(ROOT, "pnpm-lock.yaml")));
  return hash.digest("hex");
}

export async function buildServices(): Promise<void> {
  const hash = sourceHash();
  const fresh =
    existsSync(STAMP) && readFileSync(STAMP, "utf8") === hash && Object.values(SERVICE_BUNDLES).every((f) => existsSync(join(ROOT, f)));
  if (fresh) return;
  await buildNode(join(ROOT, "scripts"), ["launcher=launcher.ts", "local-services=local-services.ts", "client-preload=client-preload.ts"]);
  writeFileSync(STAMP, hash);
  // esbuild's service process would otherwise stay beside the launcher for the whole run (~140 MB).
  await stop();
}
