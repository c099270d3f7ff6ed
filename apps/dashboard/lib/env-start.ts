import { loadEnv } from "@vigil/config";
import { exitOnSecretKeyError, openSecrets } from "@vigil/db-schema";
import { getDb } from "./db";
import { crossCheck, DashboardEnv, getEnv } from "./env";

/** Prints one line naming the variable and exits 1 when the environment is not usable. */
export function checkEnvAtStart(): void {
  const env = loadEnv(DashboardEnv, "dashboard");
  const bad = crossCheck(env);
  if (bad) {
    process.stderr.write(`dashboard: invalid environment: ${bad[0]} ${bad[1]}\n`);
    process.exit(1);
  }
}

/** Channel and monitor forms read stored secrets: a key that cannot read them all stops the start in one line. */
export async function checkSecretsAtStart(): Promise<void> {
  await openSecrets(getDb(), getEnv().VIGIL_SECRET_KEY).catch(exitOnSecretKeyError("dashboard"));
}
