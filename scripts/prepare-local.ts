// The first half of `pnpm start` (scripts/start.mjs), short-lived: builds the dashboard and status page and
// compiles the services when their sources changed; the launcher then runs everything from the builds.
import { buildServices } from "./build-services";
import { buildWebApps } from "./next-build";

console.log("vigil: building the dashboard and status page (cached after the first run; the first build takes a few minutes)…");
// Another `next build` of the same app (a second start, or the browser tests) makes ours fail at
// once: wait for it and build again (then mostly from cache) instead of giving up.
for (let deadline = Date.now() + 10 * 60_000; ; ) {
  const build = await buildWebApps();
  if (build.ok) break;
  if (!build.out.includes("Another next build process is already running") || Date.now() > deadline) {
    process.stderr.write(`${build.out}\n`);
    console.error("vigil: the dashboard or status page did not build (above)");
    process.exit(1);
  }
  console.log("vigil: another build of the web apps is running; waiting for it…");
  await new Promise((r) => setTimeout(r, 5000));
}

console.log("vigil: compiling the services (cached after the first run)…");
try {
  await buildServices();
} catch (err) {
  console.error(`vigil: the services did not compile: ${(err as Error).message}`);
  process.exit(1);
}
