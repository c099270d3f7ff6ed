// The first half of `pnpm start` (scripts/start.mjs), short-lived: builds the dashboard and status page and
// compiles the services when their sources changed; the launcher then runs everything from the builds.

import { buildNextApp } from "@vigil/testing/next-build";
import { buildServices } from "./build-services";

console.log("vigil: building the dashboard and status page (cached after the first run; the first build takes a few minutes)…");
try {
  // One after the other: two Next builds at once on a small machine take longer than in turn.
  await buildNextApp("dashboard", console.log);
  await buildNextApp("status-page", console.log);
} catch (err) {
  console.error(`vigil: the dashboard or status page did not build: ${(err as Error).message}`);
  process.exit(1);
}

console.log("vigil: compiling the services (cached after the first run)…");
try {
  await buildServices();
} catch (err) {
  console.error(`vigil: the services did not compile: ${(err as Error).message}`);
  process.exit(1);
}
