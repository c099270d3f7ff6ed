import { z } from "zod";
import { httpUrl } from "../../fields";
import { checkBase, defineCheckKind } from "../kind";

export const DomainCheck = z.object({
  kind: z.literal("domain"),
  domain: z.string().min(1),
  /** The registry's RDAP base URL; unset: found from the IANA bootstrap file shipped with the package. */
  rdapUrl: z.string().url().optional(),
  /** Error when fewer days than this are left before the registration expires. */
  alertDays: z.number().int().min(0).default(30),
  /** Degraded when fewer days than this are left (more than alertDays). */
  warnDays: z.number().int().min(0).optional(),
  ...checkBase,
});
export type DomainCheck = z.infer<typeof DomainCheck>;

const DOMAIN_RE = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;
const days = z.number().int("must be a whole number of days").min(0, "must be 0 or more").max(3650, "must be at most 3650");

export const DomainRequest = z
  .object({
    domain: z
      .string()
      .trim()
      .transform((d) => d.toLowerCase().replace(/\.$/, ""))
      .pipe(z.string().max(253, "must be at most 253 characters").regex(DOMAIN_RE, "must be a registered domain name, e.g. example.com")),
    rdapUrl: httpUrl("RDAP base").optional(),
    alertDays: days.default(30),
    warnDays: days.optional(),
  })
  .refine((r) => r.warnDays === undefined || r.warnDays > r.alertDays, {
    path: ["warnDays"],
    message: "must be more than alertDays",
  });

interface DomainColumns {
  options: Record<string, unknown> | null;
}

export const domain = defineCheckKind({
  kind: "domain",
  check: DomainCheck,
  input: { request: DomainRequest },
  output: { request: DomainRequest },
  requestKey: "domain",
  exampleRequest: { domain: "x.com" },
  requestOrder: ["domain", "rdapUrl", "alertDays", "warnDays"],
  toCheck: ({ request }) => ({
    domain: request.domain,
    ...(request.rdapUrl && { rdapUrl: request.rdapUrl }),
    alertDays: request.alertDays,
    ...(request.warnDays !== undefined && { warnDays: request.warnDays }),
  }),
  toRow: (m): DomainColumns => ({ options: m ? { ...m.request } : null }),
  fromRow: (row: DomainColumns) => {
    const s = row.options ?? {};
    return {
      request: {
        domain: String(s.domain ?? ""),
        ...(typeof s.rdapUrl === "string" && { rdapUrl: s.rdapUrl }),
        alertDays: typeof s.alertDays === "number" ? s.alertDays : 30,
        ...(typeof s.warnDays === "number" && { warnDays: s.warnDays }),
      },
    };
  },
  target: (row) => String(row.options?.domain ?? ""),
  attributes: (check) => ({ "dns.question.name": check.domain, ...(check.rdapUrl && { "url.full": check.rdapUrl }) }),
});
