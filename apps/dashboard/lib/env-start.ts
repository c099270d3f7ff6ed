import { loadEnv } from "@vigil/config";
import { crossCheck, DashboardEnv } from "./env";

/** Prints one line naming the variable and exits 1 when the environment is not usable. */
export function checkEnvAtStart(): void {
  const env = loadEnv(DashboardEnv, "dashboard");
  const bad = crossCheck(env);
  if (bad) {
    process.stderr.write(`dashboard: invalid environment: ${bad[0]} ${bad[1]}\n`);
    process.exit(1);
  }
}
