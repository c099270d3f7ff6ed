// Runs once when the Next server starts: a missing or bad variable stops it with one line.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs" && process.env.NEXT_PHASE !== "phase-production-build") {
    const { checkEnvAtStart, checkSecretsAtStart } = await import("./lib/env-start");
    checkEnvAtStart();
    // Per-client rate limits need the socket's address, which Next does not hand to actions and routes.
    const { installClientStamp } = await import("@vigil/rate-limit");
    installClientStamp();
    await checkSecretsAtStart();
  }
}
