import { z } from "zod";
import { CertificateAssertion, LatencyAssertion } from "../../assertions/schema";
import { checkBase, defineCheckKind } from "../kind";
import { Host, Port } from "../tcp";

export const STARTTLS_PROTOCOLS = ["smtp", "imap", "postgres"] as const;

/** What a TLS check may assert: the peer certificate and the handshake time. */
export const TlsAssertion = z.discriminatedUnion("kind", [CertificateAssertion, LatencyAssertion], {
  error: "kind must be certificate or latency",
});
export type TlsAssertion = z.infer<typeof TlsAssertion>;

export const TlsCheck = z.object({
  kind: z.literal("tls"),
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535),
  sni: z.string().optional(),
  starttls: z.enum(STARTTLS_PROTOCOLS).optional(),
  ...checkBase,
  assertions: z.array(TlsAssertion).default([]),
});
export type TlsCheck = z.infer<typeof TlsCheck>;

export const TlsRequest = z.object({
  host: Host,
  port: Port.default(443),
  /** The server name sent in the handshake (and checked against the certificate); default: the host. */
  sni: z
    .string()
    .regex(/^[A-Za-z0-9*](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/, "must be a hostname")
    .optional(),
  /** Upgrade a plain connection first, as these protocols do on their usual ports (25/587, 143, 5432). */
  starttls: z.enum(STARTTLS_PROTOCOLS, { error: `must be one of ${STARTTLS_PROTOCOLS.join(", ")}` }).optional(),
});

interface TlsColumns {
  host: string | null;
  port: number | null;
  options: Record<string, unknown> | null;
  assertions: unknown[] | null;
}

export const tls = defineCheckKind({
  kind: "tls",
  check: TlsCheck,
  input: { request: TlsRequest, assertions: z.array(TlsAssertion).max(20, "must have at most 20 assertions").default([]) },
  output: { request: TlsRequest, assertions: z.array(TlsAssertion) },
  requestKey: "sni",
  exampleRequest: { host: "x" },
  requestOrder: ["host", "port", "sni", "starttls"],
  toCheck: ({ request, assertions }) => ({
    host: request.host,
    port: request.port,
    ...(request.sni && { sni: request.sni }),
    ...(request.starttls && { starttls: request.starttls }),
    assertions,
  }),
  toRow: (m): TlsColumns => ({
    host: m?.request.host ?? null,
    port: m?.request.port ?? null,
    options: m ? { ...(m.request.sni && { sni: m.request.sni }), ...(m.request.starttls && { starttls: m.request.starttls }) } : null,
    assertions: m?.assertions ?? null,
  }),
  fromRow: (row: TlsColumns) => ({
    request: {
      host: row.host ?? "",
      port: row.port ?? 443,
      ...(typeof row.options?.sni === "string" && { sni: row.options.sni }),
      ...(typeof row.options?.starttls === "string" && { starttls: row.options.starttls as TlsCheck["starttls"] }),
    },
    assertions: (row.assertions ?? []) as TlsAssertion[],
  }),
  target: (row) => {
    const host = row.host ?? "";
    return `${host.includes(":") ? `[${host}]` : host}:${row.port ?? ""}`;
  },
  attributes: (check, result) => ({
    "server.address": check.host,
    "server.port": check.port,
    ...(check.sni && { "tls.client.server_name": check.sni }),
    ...(result.certificate && {
      "tls.server.subject": result.certificate.subject,
      "tls.server.issuer": result.certificate.issuer,
      "tls.server.not_after": new Date(result.certificate.notAfter).toISOString(),
    }),
  }),
});
