import { env, z } from "@vigil/config";

export const WorkflowsEnv = z.object({
  PORT: env.port(3000),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: env.DATABASE_URL,
  DATABASE_AUTH_TOKEN: env.DATABASE_AUTH_TOKEN,
  REDIS_URL: env.REDIS_URL,
  LOG_LEVEL: env.LOG_LEVEL,
});
export type WorkflowsEnv = z.infer<typeof WorkflowsEnv>;
