// Runs once when the Next server starts: a missing or bad variable stops it with one line.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs" && process.env.NEXT_PHASE !== "phase-production-build") {
    const { checkEnvAtStart, checkSecretsAtStart } = await import("./lib/env-start");
    checkEnvAtStart();
    await checkSecretsAtStart();
  }
}
