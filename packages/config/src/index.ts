import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { z } from "zod";
import { installTestClock } from "./clock";
import { EnvError } from "./errors";

export { installTestClock, TEST_CLOCK_VARIABLE } from "./clock";
export { EnvError } from "./errors";
export { METRICS_TOKEN_UNSET, METRICS_TOKEN_VARIABLE, metricsRefusal, metricsRefused } from "./metrics-token";

/**
 * Secrets a service may also take from a file, `<NAME>_FILE` (compose mounts them from a volume or as
 * secrets); the variable itself wins when both are set.
 */
export const FILE_VARIABLES = new Set(["DATABASE_AUTH_TOKEN"]);

/** Fills `NAME` from `NAME_FILE` for the schema's file variables; a file that cannot be read is an EnvError. */
function readFileVariables(shape: Record<string, unknown>, cleaned: Record<string, string>): void {
  for (const name of FILE_VARIABLES) {
    const path = cleaned[`${name}_FILE`];
    if (!(name in shape) || path === undefined || cleaned[name] !== undefined) continue;
    let value: string;
    try {
      value = readFileSync(path, "utf8").trim();
    } catch (err) {
      throw new EnvError(`${name}_FILE`, `cannot be read (${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    if (value === "") throw new EnvError(`${name}_FILE`, `names an empty file (${path})`);
    cleaned[name] = value;
  }
}

/** Parses env against a zod object schema; throws EnvError naming the first bad variable. */
export function parseEnv<S extends z.ZodObject>(schema: S, env: Record<string, string | undefined> = process.env): z.infer<S> {
  // Empty strings count as unset so that `FOO=` in an env file falls back to defaults.
  const cleaned: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== "") cleaned[k] = v;
  readFileVariables(schema.shape, cleaned);
  const parsed = schema.safeParse(cleaned);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const variable = String(issue.path[0] ?? "env");
  const rule = issue.code === "invalid_type" && cleaned[variable] === undefined ? "is required but not set" : issue.message;
  throw new EnvError(variable, rule);
}

/** Reads env once at start-up (and installs the test clock when asked); a bad variable prints one line and exits 1. */
export function loadEnv<S extends z.ZodObject>(schema: S, service = "vigil"): z.infer<S> {
  try {
    const parsed = parseEnv(schema, process.env);
    installTestClock(process.env);
    return parsed;
  } catch (err) {
    if (err instanceof EnvError) {
      process.stderr.write(`${service}: invalid environment: ${err.variable} ${err.rule}\n`);
      process.exit(1);
    }
    throw err;
  }
}

const port = (fallback: number) =>
  z.coerce
    .number({ error: "must be a port number" })
    .int("must be a port number")
    .min(0, "must be a port number 0-65535")
    .max(65535, "must be a port number 0-65535")
    .default(fallback);
const url = (fallback?: string) => {
  const u = z
    .string()
    .regex(/^https?:\/\/[^\s/]+/, "must be a URL such as http://127.0.0.1:8080")
    .pipe(z.string().url("must be a URL such as http://127.0.0.1:8080"));
  return fallback === undefined ? u : u.default(fallback);
};

/** Addresses or CIDR ranges, comma separated; `example` shows the form in the error. */
const cidrList = (example: string) =>
  z
    .string()
    .default("")
    .transform((raw) =>
      raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine(
      (list) =>
        list.every((entry) => {
          const [addr, bits, extra] = entry.split("/");
          const v = isIP(addr ?? "");
          return v !== 0 && extra === undefined && (bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (v === 4 ? 32 : 128)));
        }),
      `must be IP addresses or CIDR ranges, comma separated, such as ${example}`,
    );

/** Variables shared by several services; each service composes what it needs. */
export const env = {
  port,
  url,
  DATABASE_URL: url("http://127.0.0.1:8080"),
  DATABASE_AUTH_TOKEN: z.string().optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// URL")
    .default("redis://127.0.0.1:6379"),
  /** What Prometheus sends as a bearer token to read a service's /metrics; unset, /metrics refuses every scrape. */
  VIGIL_METRICS_TOKEN: z.string().min(16, "must be at least 16 characters (pnpm start makes one; openssl rand -hex 32)").optional(),
  /** Encrypts stored secrets; its format is checked where the key is used (@vigil/db-schema). */
  VIGIL_SECRET_KEY: z.string().optional(),
  /**
   * Proxies in front of the apps (addresses or CIDR ranges, comma separated): X-Forwarded-* headers are
   * believed only from these. Unset: no proxy, and a client-sent X-Forwarded-For counts for nothing.
   */
  TRUSTED_PROXIES: cidrList("10.0.0.0/8,127.0.0.1"),
  /**
   * Private ranges (comma separated CIDR) that anonymous status-page subscribers' webhook and Slack URLs may
   * reach, for internal status pages. Unset: public addresses only. The instance's own services stay refused.
   */
  SUBSCRIBER_ALLOW_PRIVATE: cidrList("10.0.0.0/8,fd00::/8"),
  /** Where jobs reach the server's ping endpoints (`<PING_BASE_URL>/ping/<token>`), as shown in the dashboard and in alerts. */
  PING_BASE_URL: url("http://127.0.0.1:3001"),
  /** The database as the operator reaches it from the host: the dashboard's operator statements (`curl`) name it. */
  PUBLIC_DATABASE_URL: url("http://127.0.0.1:8080"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** The address a service listens on. */
  HOST: z.string().default("0.0.0.0"),
  /** Namespaces queues and pub/sub. Unset: named after the database's install id, so installs sharing a Redis never mix. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, "must be lowercase letters, digits or dashes")
    .optional(),
};

/** What the server and workflows both read: where they listen, the database, Redis, logs and ping links. */
export const serviceEnv = (defaultPort: number) => ({
  PORT: port(defaultPort),
  HOST: env.HOST,
  DATABASE_URL: env.DATABASE_URL,
  DATABASE_AUTH_TOKEN: env.DATABASE_AUTH_TOKEN,
  VIGIL_SECRET_KEY: env.VIGIL_SECRET_KEY,
  VIGIL_METRICS_TOKEN: env.VIGIL_METRICS_TOKEN,
  REDIS_URL: env.REDIS_URL,
  LOG_LEVEL: env.LOG_LEVEL,
  PING_BASE_URL: env.PING_BASE_URL,
});

export { z };
