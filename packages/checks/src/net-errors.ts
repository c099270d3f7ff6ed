import { EgressRefusedError } from "@vigil/egress";
import { DnsLookupError } from "./dns";

const CONNECT_ERRORS: Record<string, (target: string) => string> = {
  ECONNREFUSED: (t) => `connection refused by ${t}`,
  ECONNRESET: (t) => `connection reset by ${t}`,
  EHOSTUNREACH: (t) => `host unreachable: ${t}`,
  ENETUNREACH: (t) => `network unreachable: ${t}`,
  EADDRNOTAVAIL: (t) => `address not available: ${t}`,
  ETIMEDOUT: (t) => `connection to ${t} timed out in the operating system`,
  EPIPE: (t) => `connection to ${t} closed while sending`,
};

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/;

function codeOf(err: unknown): string | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string") return code;
  // Happy eyeballs (several addresses) fails with an AggregateError holding one error per address.
  const inner = (err as { errors?: unknown }).errors;
  return Array.isArray(inner) ? codeOf(inner[0]) : undefined;
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** A sentence naming what went wrong while reaching `target` (host:port). */
export function describeConnectError(err: unknown, target: string): string {
  if (err instanceof DnsLookupError || err instanceof EgressRefusedError) return err.message;
  const code = codeOf(err);
  if (code && CONNECT_ERRORS[code]) return CONNECT_ERRORS[code](target);
  if (code && TLS_CODE.test(code)) return `TLS handshake with ${target} failed: ${messageOf(err)} (${code})`;
  return `connection to ${target} failed: ${messageOf(err)}${code ? ` (${code})` : ""}`;
}

export { codeOf, messageOf };
