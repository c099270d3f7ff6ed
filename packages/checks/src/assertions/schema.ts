import { z } from "zod";

export const COMPARATORS = ["eq", "not_eq", "gt", "gte", "lt", "lte", "contains", "not_contains", "empty", "not_empty"] as const;
const NUMBER_COMPARATORS = ["eq", "not_eq", "gt", "gte", "lt", "lte"] as const;
const STRING_COMPARATORS = ["eq", "not_eq", "contains", "not_contains", "empty", "not_empty"] as const;

const numberCompare = z.enum(NUMBER_COMPARATORS, { error: `must be one of ${NUMBER_COMPARATORS.join(", ")}` });
const stringCompare = z.enum(STRING_COMPARATORS, { error: `must be one of ${STRING_COMPARATORS.join(", ")}` });
const anyCompare = z.enum(COMPARATORS, { error: `must be one of ${COMPARATORS.join(", ")}` });

export const StatusCodeAssertion = z.object({
  kind: z.literal("statusCode"),
  compare: numberCompare,
  target: z.number().int().min(100, "must be an HTTP status (100-599)").max(599, "must be an HTTP status (100-599)"),
});

export const TextBodyAssertion = z.object({
  kind: z.literal("textBody"),
  compare: stringCompare,
  target: z.string().default(""),
});

export const HeaderAssertion = z.object({
  kind: z.literal("header"),
  key: z.string().min(1, "must name a header"),
  compare: stringCompare,
  target: z.string().default(""),
});

export const JsonBodyAssertion = z.object({
  kind: z.literal("jsonBody"),
  path: z.string().regex(/^\$/, "must be a JSONPath starting with $ (e.g. $.status)"),
  compare: anyCompare,
  target: z.union([z.string(), z.number(), z.boolean(), z.null()]).default(null),
});

export const LatencyAssertion = z.object({
  kind: z.literal("latency"),
  compare: numberCompare,
  target: z.number().min(0, "must be milliseconds, 0 or more"),
});

export const CERTIFICATE_PROPERTIES = ["expiresIn", "issuer", "valid"] as const;
const CERTIFICATE_RULES = {
  expiresIn: { compares: ["gt", "gte", "lt", "lte"], target: "number", rule: "a number of days" },
  issuer: { compares: ["eq", "not_eq", "contains", "not_contains"], target: "string", rule: "text" },
  valid: { compares: ["eq"], target: "boolean", rule: "true or false" },
} as const;

/**
 * The peer certificate of an HTTPS or TLS check: days until it expires, its issuer, whether its chain is
 * trusted. `severity: degraded` makes a failure degrade the check instead of failing it, so "degraded 21
 * days before expiry, error at 7" is two assertions.
 */
export const CertificateAssertion = z
  .object({
    kind: z.literal("certificate"),
    property: z.enum(CERTIFICATE_PROPERTIES, { error: `must be one of ${CERTIFICATE_PROPERTIES.join(", ")}` }),
    compare: anyCompare.default("eq"),
    target: z.union([z.number(), z.string(), z.boolean()], { error: "must be a number, text or true/false" }),
    severity: z.enum(["error", "degraded"], { error: "must be error or degraded" }).default("error"),
  })
  .superRefine((a, ctx) => {
    const rule = CERTIFICATE_RULES[a.property];
    if (!(rule.compares as readonly string[]).includes(a.compare))
      ctx.addIssue({ code: "custom", path: ["compare"], message: `must be one of ${rule.compares.join(", ")} for ${a.property}` });
    if (typeof a.target !== rule.target)
      ctx.addIssue({ code: "custom", path: ["target"], message: `must be ${rule.rule} for ${a.property}` });
  });
/** Share of ping packets lost, in percent (ping checks). */
export const PacketLossAssertion = z.object({
  kind: z.literal("packetLoss"),
  compare: numberCompare,
  target: z.number().min(0, "must be a percentage, 0-100").max(100, "must be a percentage, 0-100"),
});

export type Comparator = (typeof COMPARATORS)[number];
export type StatusCodeAssertion = z.infer<typeof StatusCodeAssertion>;
export type TextBodyAssertion = z.infer<typeof TextBodyAssertion>;
export type HeaderAssertion = z.infer<typeof HeaderAssertion>;
export type JsonBodyAssertion = z.infer<typeof JsonBodyAssertion>;
export type LatencyAssertion = z.infer<typeof LatencyAssertion>;
export type CertificateAssertion = z.infer<typeof CertificateAssertion>;
export type PacketLossAssertion = z.infer<typeof PacketLossAssertion>;

export const Assertion = z.discriminatedUnion(
  "kind",
  [StatusCodeAssertion, TextBodyAssertion, HeaderAssertion, JsonBodyAssertion, LatencyAssertion, CertificateAssertion],
  { error: "kind must be one of statusCode, textBody, header, jsonBody, latency, certificate" },
);
export type Assertion = z.infer<typeof Assertion>;
export type AssertionInput = z.input<typeof Assertion>;

/** What the kinds without an HTTP response assert on a single value (first message, first row's first value). */
export const ValueAssertion = z.discriminatedUnion("kind", [TextBodyAssertion, JsonBodyAssertion, LatencyAssertion], {
  error: "kind must be one of textBody, jsonBody, latency",
});
export type ValueAssertion = z.infer<typeof ValueAssertion>;

export const PingAssertion = z.discriminatedUnion("kind", [LatencyAssertion, PacketLossAssertion], {
  error: "kind must be one of latency, packetLoss",
});
export type PingAssertion = z.infer<typeof PingAssertion>;
