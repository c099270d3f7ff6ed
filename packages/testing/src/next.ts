// `next start` of a web app for tests and benches, on the one shared build (next-build.ts).
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, type Proc, untilHealthy } from "./index";
import { NEXT_START_FLAGS } from "./next-build";
import { Service } from "./service";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

export { buildNextApp } from "./next-build";

export interface NextApp {
  url: string;
  proc: Proc;
  stop(): Promise<void>;
}

/**
 * Spawns `next start` of `apps/<name>` with exactly `env` (plus PATH/HOME, the metrics token, and the VIGIL_SECRET_KEY the
 * test's database was given); does not wait.
 */
export function spawnNextApp(name: string, port: number, env: Record<string, string>): Proc {
  const app = join(ROOT, "apps", name);
  const service = new Service({
    name,
    entry: join(app, "node_modules/next/dist/bin/next"),
    args: ["start", "-p", String(port), "-H", "127.0.0.1", ...NEXT_START_FLAGS],
    cwd: app,
    inheritEnv: false,
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_ENV: "production",
      ...(process.env.VIGIL_SECRET_KEY ? { VIGIL_SECRET_KEY: process.env.VIGIL_SECRET_KEY } : {}),
      ...(process.env.VIGIL_METRICS_TOKEN ? { VIGIL_METRICS_TOKEN: process.env.VIGIL_METRICS_TOKEN } : {}),
      ...env,
    },
    health: `http://127.0.0.1:${port}/healthz`,
  });
  void service.start(false);
  return service;
}

/** `next start` on a free port (or `port`); resolves once /healthz answers. `env` may use the URL it will have. */
export async function startNextApp(name: string, env: (url: string) => Record<string, string>, port?: number): Promise<NextApp> {
  const p = port ?? (await freePort());
  const url = `http://127.0.0.1:${p}`;
  const proc = spawnNextApp(name, p, env(url));
  await untilHealthy(name, `${url}/healthz`, proc);
  return { url, proc, stop: () => proc.stop() };
}
