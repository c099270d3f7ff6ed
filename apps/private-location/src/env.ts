import { env, z } from "@vigil/config";

export const ProbeEnv = z.object({
  SERVICE_KEY: z.string().regex(/^vgl_loc_/, "must be the key shown when the private location was created (vgl_loc_…)"),
  SERVICE_INGEST_URL: env.url(),
  PORT: env.port(8081),
  HOST: z.string().default("0.0.0.0"),
  PROBE_DATA_DIR: z.string().default("./.data/probe"),
  LOG_LEVEL: env.LOG_LEVEL,
});
export type ProbeEnv = z.infer<typeof ProbeEnv>;
