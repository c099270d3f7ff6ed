import { z } from "zod";

export const CHECK_STATUSES = ["success", "degraded", "error"] as const;
export const CheckStatus = z.enum(CHECK_STATUSES);
export type CheckStatus = z.infer<typeof CheckStatus>;

const ms = z.number().min(0);
export const CheckTimings = z.object({
  dns: ms.optional(),
  connect: ms.optional(),
  tls: ms.optional(),
  firstByte: ms.optional(),
  download: ms.optional(),
  total: ms,
});
export type CheckTimings = z.infer<typeof CheckTimings>;

/** The longest text a result carries (error and assertion messages); runners clip to it, ingest refuses more. */
export const MAX_MESSAGE_CHARS = 2000;
const message = z.string().max(MAX_MESSAGE_CHARS, `must be at most ${MAX_MESSAGE_CHARS} characters`);

export const AssertionOutcome = z.object({
  kind: z.string().max(64, "must be at most 64 characters"),
  ok: z.boolean(),
  message,
  /** A failure that only degrades the check (e.g. a certificate 21 days from expiry); unset: an error. */
  severity: z.literal("degraded").optional(),
});
export type AssertionOutcome = z.infer<typeof AssertionOutcome>;

/** The peer certificate a TLS handshake showed (HTTPS and TLS checks). */
export const CertificateInfo = z.object({
  subject: z.string().max(1000),
  /** Subject alternative names (DNS names and IP addresses). */
  sans: z.array(z.string().max(300)).max(100),
  issuer: z.string().max(1000),
  /** Epoch ms the certificate stops being valid. */
  notAfter: z.number(),
  /** The chain verified against the probe's trusted roots and names the host. */
  valid: z.boolean(),
  validationError: z.string().max(300).optional(),
});
export type CertificateInfo = z.infer<typeof CertificateInfo>;

/** The outcome of one check (all its attempts). A target's failure is data, never an exception. */
export const CheckResult = z.object({
  status: CheckStatus,
  latencyMs: ms,
  statusCode: z.number().int().min(100).max(599).optional(),
  errorMessage: message.optional(),
  timings: CheckTimings.optional(),
  /** 0 when the deadline left no room for even one attempt. */
  attempts: z.number().int().min(0),
  assertions: z.array(AssertionOutcome).max(100).optional(),
  /** Facts of the kind's own (ping's loss and round trips, gRPC's status…) for OTLP attributes and alerts. */
  details: z.record(z.string().max(64), z.union([z.string().max(200), z.number(), z.boolean()])).optional(),
  /** The body was larger than what checks read (1 MiB); assertions saw only its start. */
  bodyTruncated: z.boolean().optional(),
  certificate: CertificateInfo.optional(),
});
export type CheckResult = z.infer<typeof CheckResult>;
