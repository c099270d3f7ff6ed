import type { PeerCertificate, TLSSocket } from "node:tls";
import type { CertificateInfo } from "./schema";

const DAY_MS = 86_400_000;

/** The subject or issuer as one line, e.g. "CN=api.example.com, O=Example". */
function distinguishedName(name: PeerCertificate["subject"] | undefined): string {
  if (!name) return "";
  return Object.entries(name)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join("+") : v}`)
    .join(", ");
}

/**
 * What a check records of the peer's certificate once the handshake is done: who it names, who signed
 * it, when it ends and whether the chain (and host name) verified.
 */
export function describePeer(socket: TLSSocket): CertificateInfo | undefined {
  const cert = socket.getPeerCertificate(false);
  if (!cert || Object.keys(cert).length === 0) return undefined;
  const sans = (cert.subjectaltname ?? "")
    .split(",")
    .map((s) => s.trim().replace(/^(DNS|IP Address):/, ""))
    .filter(Boolean);
  const error = socket.authorizationError;
  return {
    subject: distinguishedName(cert.subject),
    sans: sans.slice(0, 100),
    issuer: distinguishedName(cert.issuer),
    notAfter: Date.parse(cert.valid_to),
    valid: socket.authorized,
    ...(!socket.authorized && error && { validationError: String(error instanceof Error ? error.message : error).slice(0, 200) }),
  };
}

/** Whole days until `notAfter` (negative once expired). */
export const daysLeft = (notAfter: number, now = Date.now()): number => Math.floor((notAfter - now) / DAY_MS);
