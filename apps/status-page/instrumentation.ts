// Runs once when the Next server starts: a missing or bad variable stops it with one line.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { loadEnv } = await import("@vigil/config");
  const { StatusPageEnv, crossCheck } = await import("./lib/env");
  const env = loadEnv(StatusPageEnv, "status-page");
  const bad = crossCheck(env);
  if (bad) {
    process.stderr.write(`status-page: invalid environment: ${bad[0]} ${bad[1]}\n`);
    process.exit(1);
  }
  const { installFastPath } = await import("./lib/fast-path");
  installFastPath();
}
