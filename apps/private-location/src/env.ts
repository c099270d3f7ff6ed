import { env, z } from "@vigil/config";
import { parseDenyList, parseInstanceUrls } from "@vigil/egress";

const int = (min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`)
    .default(fallback);

/** A comma-separated list parsed by `parse`, whose error (naming the entry and the rule) becomes the variable's rule. */
const list = <T>(parse: (text: string) => T[]) =>
  z
    .string()
    .default("")
    .transform((text, ctx) => {
      try {
        return parse(text);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
        return z.NEVER;
      }
    });

export const ProbeEnv = z.object({
  SERVICE_KEY: z.string().regex(/^vgl_loc_/, "must be the key shown when the private location was created (vgl_loc_…)"),
  SERVICE_INGEST_URL: env.url(),
  PORT: env.port(8081),
  HOST: env.HOST,
  PROBE_DATA_DIR: z.string().default("./.data/probe"),
  /** Checks running at once, across all monitors. */
  PROBE_CONCURRENCY: int(1, 100_000, 500),
  PROBE_OUTBOX_MAX_MB: int(1, 1_000_000, 256),
  PROBE_OUTBOX_MAX_AGE_H: int(1, 24 * 365, 72),
  /** Group-commit window of the outbox (results gathered, then written and fsync'ed once). */
  PROBE_COMMIT_MS: int(1, 50, 25),
  /** Results wait at most this long before they are sent. */
  PROBE_SEND_INTERVAL_MS: int(10, 10_000, 1000),
  PROBE_BATCH_SIZE: int(1, 1000, 500),
  /** Long-poll timeout asked of the server, which caps it at its own PROBE_WAIT_MS. */
  PROBE_WAIT_MS: int(1000, 120_000, 25_000),
  /** Longest pause between retries while the server is away. */
  PROBE_MAX_BACKOFF_MS: int(100, 300_000, 10_000),
  PROBE_OTEL_INTERVAL_MS: int(100, 3_600_000, 10_000),
  /** On SIGTERM, how long running checks may finish before they are aborted. */
  PROBE_SHUTDOWN_GRACE_MS: int(0, 8000, 5000),
  /**
   * Endpoints checks and OTLP export may not send bytes to, as `cidr:port` (IPv6 in brackets; no port: every
   * port), e.g. `10.0.0.0/8:5432,[fd00::/8]:6379`. A connect-only TCP check still reaches them.
   */
  PROBE_DENY: list(parseDenyList),
  /**
   * The instance's own endpoints, when the probe shares a host or network with them (the local run), as
   * `name=url`, e.g. `database=http://127.0.0.1:8080,redis=redis://127.0.0.1:6379`: refused like PROBE_DENY.
   */
  PROBE_INSTANCE_URLS: list(parseInstanceUrls),
  LOG_LEVEL: env.LOG_LEVEL,
  VIGIL_METRICS_TOKEN: env.VIGIL_METRICS_TOKEN,
});
export type ProbeEnv = z.infer<typeof ProbeEnv>;
