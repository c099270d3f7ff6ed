import { z } from "zod";
import { LatencyAssertion } from "../../assertions/schema";
import { checkBase, defineCheckKind } from "../kind";
import { HOST_RE } from "../tcp";

export const RECORD_TYPES = ["A", "AAAA", "CNAME", "MX", "TXT", "NS", "SOA", "CAA", "SRV"] as const;
export type RecordType = (typeof RECORD_TYPES)[number];
export const RCODES = ["NOERROR", "NXDOMAIN", "SERVFAIL", "REFUSED", "NOTIMP", "FORMERR"] as const;

const textList = z.array(z.string().min(1, "must not be empty").max(1000)).min(1, "must list at least one record").max(50);

/** The answer set: `contains` each listed record, `eq` exactly these (as a set, in any order). */
export const AnswerAssertion = z.object({
  kind: z.literal("answer"),
  compare: z.enum(["contains", "not_contains", "eq", "not_eq"], { error: "must be one of contains, not_contains, eq, not_eq" }),
  target: z.union([z.string().min(1, "must not be empty"), textList]).transform((t) => (typeof t === "string" ? [t] : t)),
});
export const AnswerCountAssertion = z.object({
  kind: z.literal("answerCount"),
  compare: z.enum(["eq", "not_eq", "gt", "gte", "lt", "lte"], { error: "must be one of eq, not_eq, gt, gte, lt, lte" }),
  target: z.number().int("must be a whole number").min(0, "must be 0 or more"),
});
/** The response code; `eq NXDOMAIN` makes a name that must not exist the expected answer. */
export const RcodeAssertion = z.object({
  kind: z.literal("rcode"),
  compare: z.enum(["eq", "not_eq"], { error: "must be eq or not_eq" }).default("eq"),
  target: z.enum(RCODES, { error: `must be one of ${RCODES.join(", ")}` }),
});
export const DnsAssertion = z.discriminatedUnion("kind", [AnswerAssertion, AnswerCountAssertion, RcodeAssertion, LatencyAssertion], {
  error: "kind must be answer, answerCount, rcode or latency",
});
export type DnsAssertion = z.infer<typeof DnsAssertion>;

export const DnsCheck = z.object({
  kind: z.literal("dns"),
  name: z.string().min(1),
  recordType: z.enum(RECORD_TYPES).default("A"),
  /** host:port of the resolver to ask; unset: the probe's own (system) resolvers. */
  resolver: z.object({ host: z.string().min(1), port: z.number().int().min(1).max(65535) }).optional(),
  ...checkBase,
  assertions: z.array(DnsAssertion).default([]),
});
export type DnsCheck = z.infer<typeof DnsCheck>;

const NAME_RE = /^(?:\*\.)?(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?\.?$/;

/** `host:port`, `[v6]:port` or a bare host (port 53). */
export const ResolverAddress = z.string().transform((text, ctx) => {
  const m =
    /^\[([0-9a-fA-F:.]+)\](?::(\d+))?$/.exec(text) ??
    /^([0-9a-fA-F]*:[0-9a-fA-F]*:[0-9a-fA-F:.]*)()$/.exec(text) ??
    /^([^:[\]]+)(?::(\d+))?$/.exec(text);
  const host = m?.[1];
  const port = m?.[2] ? Number(m[2]) : 53;
  if (!host || !HOST_RE.test(host)) {
    ctx.addIssue({ code: "custom", message: "must be host:port, e.g. 1.1.1.1:53 or [2606:4700::1111]:53" });
    return z.NEVER;
  }
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    ctx.addIssue({ code: "custom", message: "port must be 1-65535" });
    return z.NEVER;
  }
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
});

export const DnsRequest = z.object({
  name: z.string().max(253, "must be at most 253 characters").regex(NAME_RE, "must be a domain name, e.g. api.example.com"),
  recordType: z
    .string()
    .transform((t) => t.toUpperCase())
    .pipe(z.enum(RECORD_TYPES, { error: `must be one of ${RECORD_TYPES.join(", ")}` }))
    .default("A"),
  resolver: ResolverAddress.optional(),
});

export function parseResolver(text: string): { host: string; port: number } {
  const i = text.lastIndexOf(":");
  return { host: text.slice(0, i).replace(/^\[(.*)\]$/, "$1"), port: Number(text.slice(i + 1)) };
}

interface DnsColumns {
  options: Record<string, unknown> | null;
  assertions: unknown[] | null;
}

export const dns = defineCheckKind({
  kind: "dns",
  check: DnsCheck,
  input: { request: DnsRequest, assertions: z.array(DnsAssertion).max(20, "must have at most 20 assertions").default([]) },
  output: { request: DnsRequest, assertions: z.array(DnsAssertion) },
  requestKey: "recordType",
  exampleRequest: { name: "x" },
  requestOrder: ["name", "recordType", "resolver"],
  toCheck: ({ request, assertions }) => ({
    name: request.name,
    recordType: request.recordType,
    ...(request.resolver && { resolver: parseResolver(request.resolver) }),
    assertions,
  }),
  toRow: (m): DnsColumns => ({
    options: m
      ? { name: m.request.name, recordType: m.request.recordType, ...(m.request.resolver && { resolver: m.request.resolver }) }
      : null,
    assertions: m?.assertions ?? null,
  }),
  fromRow: (row: DnsColumns) => ({
    request: {
      name: String(row.options?.name ?? ""),
      recordType: (row.options?.recordType ?? "A") as RecordType,
      ...(typeof row.options?.resolver === "string" && { resolver: row.options.resolver }),
    },
    assertions: (row.assertions ?? []) as DnsAssertion[],
  }),
  target: (row) => {
    const s = row.options ?? {};
    return `${s.name ?? ""} ${s.recordType ?? "A"}${s.resolver ? ` @${s.resolver}` : ""}`;
  },
  attributes: (check) => ({
    "dns.question.name": check.name,
    "dns.question.type": check.recordType,
    ...(check.resolver && { "server.address": check.resolver.host, "server.port": check.resolver.port }),
  }),
});
