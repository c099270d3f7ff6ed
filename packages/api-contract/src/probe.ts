import { z } from "zod";
import { CheckDefinition, CheckResult } from "./check";
import { Frequency } from "./common";

/** A ULID: the probe names each result so a resent batch is recognised. */
export const Ulid = z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, "must be a ULID (26 Crockford base32 characters)");

export const IngestResult = CheckResult.extend({
  id: Ulid,
  monitorId: z.number().int().positive(),
  /** The scheduled slot, ms since epoch. */
  cronTimestamp: z.number().int().positive(),
  startedAt: z.number().int().positive(),
});
export type IngestResult = z.infer<typeof IngestResult>;

/** POST /v1/probe/results */
export const IngestBatch = z.object({
  results: z.array(IngestResult).min(1, "must hold at least one result").max(1000, "must hold at most 1000 results"),
});
export type IngestBatch = z.infer<typeof IngestBatch>;

export const IngestOutput = z.object({
  accepted: z.number().int(),
  duplicates: z.number().int(),
  /** Results of monitors that are gone or not this workspace's; the probe drops them. */
  ignored: z.number().int(),
  /**
   * Results whose slot lies more than 5 minutes ahead of the server's clock: not stored, the probe drops
   * them (its clock is wrong). 0 from a server that predates the rule.
   */
  refused: z.number().int().default(0),
  /** False when the queue was unreachable: results are stored and will be evaluated later. */
  queued: z.boolean(),
});
export type IngestOutput = z.infer<typeof IngestOutput>;

export const ProbeMonitor = z.object({
  id: z.number().int(),
  name: z.string(),
  frequency: Frequency,
  intervalMs: z.number().int(),
  version: z.number().int(),
  check: CheckDefinition,
  openTelemetry: z.object({ endpoint: z.string(), headers: z.record(z.string(), z.string()) }).nullable(),
});
export type ProbeMonitor = z.infer<typeof ProbeMonitor>;

/** The header a probe names its instance in, so several probes can share one location's key. */
export const PROBE_INSTANCE_HEADER = "x-vigil-probe-instance";
export const ProbeInstanceId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1-64 letters, digits, _ or -");

/**
 * The probes sharing a location (a pool): membership plans, oldest first. A plan holds for the slots
 * from `from` (ms since epoch) to the next plan's `from`; each slot of a monitor belongs to one member
 * of the plan in force at that slot, so every probe decides alike for every slot.
 */
export const ProbePool = z.object({
  version: z.number().int(),
  plans: z.array(z.object({ from: z.number(), members: z.array(ProbeInstanceId) })),
});
export type ProbePool = z.infer<typeof ProbePool>;

/** GET /v1/probe/monitors (ETag / If-None-Match). */
export const ProbeMonitorList = z.object({
  location: z.object({ id: z.number().int(), name: z.string(), region: z.string() }),
  monitors: z.array(ProbeMonitor),
  /**
   * Absent when the probe named no instance, or the server could not read the pool (Redis away): the probe
   * keeps the plans it knows, and runs every monitor when it knows none (a probe alone, as before pools).
   */
  pool: ProbePool.optional(),
});
export type ProbeMonitorList = z.infer<typeof ProbeMonitorList>;

/** An on-demand run the server asks a probe for (trigger, test now). */
export const RunRequest = z.object({
  runId: z.string().min(1),
  monitorId: z.number().int().nullable(),
  check: CheckDefinition,
});
export type RunRequest = z.infer<typeof RunRequest>;

/** GET /v1/probe/wait */
export const ProbeWaitQuery = z.object({
  etag: z.string().max(200).default(""),
  timeout: z.coerce.number().int().min(0).max(120_000).default(25_000),
  /** Checks the probe could not run in time (its own load) since its last poll. */
  skipped: z.coerce.number().int().min(0).max(10_000_000).optional(),
  /** "1" while the probe keeps missing its deadlines. */
  overloaded: z.enum(["0", "1"]).optional(),
  /** The pool version the probe knows: a newer one answers the poll at once. */
  pool: z.coerce.number().int().optional(),
});

/** GET /v1/probe/wait: long-poll answer. */
export const ProbeWaitOutput = z.object({
  etag: z.string(),
  changed: z.boolean(),
  runs: z.array(RunRequest),
  /** The pool, for a probe that names its instance: a membership change reaches members without a list refetch. */
  pool: ProbePool.optional(),
});
export type ProbeWaitOutput = z.infer<typeof ProbeWaitOutput>;

/** POST /v1/probe/runs/:runId */
export const RunResultInput = CheckResult;
