// The workspace, its ping key, audit log and Prometheus scrape: answers and queries of /v1/workspace and friends.
import { z } from "zod";

/** What every answer about a workspace names: the workspace API's and the instance admin's. */
export const WorkspaceFields = z.object({
  id: z.number(),
  name: z.string().nullable(),
  plan: z.string().nullable(),
  paidUntil: z.number().nullable(),
  endsAt: z.number().nullable(),
});

/**
 * GET /v1/workspace. `limits` is @vigil/limits' schema, which depends on this package, so it is passed in.
 */
export const workspaceOutput = <L extends z.ZodType>(limits: L) => WorkspaceFields.extend({ expired: z.boolean(), limits });

// The ping key lets its holder ping (and, when allowed, create) any heartbeat by name: a write secret.
export const PingKeyOutput = z.object({
  pingKey: z.string().nullable().describe("null until made with POST /v1/workspace/ping-key/rotate"),
  autoCreate: z.boolean(),
  pingUrlBase: z.string().nullable().describe("`<pingUrlBase>/<entry key>` pings a heartbeat by name"),
});
/** PATCH /v1/workspace/ping-key */
export const PingKeyPatch = z.object({ autoCreate: z.boolean({ error: "must be true or false" }) }).strict();

/** A heartbeat as GET /v1/heartbeats/:id shows it; a client reads where to ping, the rest passes through. */
export const HeartbeatInfo = z.looseObject({ monitorId: z.number(), pingUrl: z.string().url().nullable(), state: z.string() });

/** GET /v1/audit-log */
export const AuditLogQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  before: z.coerce.number().int().positive().optional(),
});

/** At most this many tag names become labels: each adds one label to every series, never a series. */
export const MAX_TAG_LABELS = 10;
/** GET /v1/metrics */
export const MetricsQuery = z.object({
  tags: z
    .string()
    .optional()
    .describe(`comma-separated tag names (at most ${MAX_TAG_LABELS}) to add as labels tag_<name>: "team" reads the tag team:<value>`),
});
