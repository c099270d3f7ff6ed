import { env, z } from "@vigil/config";

export const ServerEnv = z.object({
  PORT: env.port(3001),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: env.DATABASE_URL,
  DATABASE_AUTH_TOKEN: env.DATABASE_AUTH_TOKEN,
  REDIS_URL: env.REDIS_URL,
  LOG_LEVEL: env.LOG_LEVEL,
});
export type ServerEnv = z.infer<typeof ServerEnv>;
