// Who may read a service's /metrics: the operator's scraper, with VIGIL_METRICS_TOKEN as a bearer token.
import { createHash, timingSafeEqual } from "node:crypto";

export const METRICS_TOKEN_VARIABLE = "VIGIL_METRICS_TOKEN";

/** What an unset token answers, and logs once: metrics stay closed rather than open to anyone. */
export const METRICS_TOKEN_UNSET = `/metrics is off: set ${METRICS_TOKEN_VARIABLE} and scrape with "Authorization: Bearer <token>"`;

// Digests of equal length, so the comparison takes the same time whatever the guess's length or content.
const digest = (s: string) => createHash("sha256").update(s).digest();

/** Null when `authorization` carries the metrics `token`; otherwise the refusal, as one line. */
export function metricsRefusal(authorization: string | null | undefined, token: string | undefined): string | null {
  if (!token) return METRICS_TOKEN_UNSET;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? "");
  if (m && timingSafeEqual(digest(m[1]!), digest(token))) return null;
  return `/metrics needs "Authorization: Bearer <${METRICS_TOKEN_VARIABLE}>"`;
}

/** The 401 a web app's /metrics route answers with `refusal`. */
export function metricsRefused(refusal: string): Response {
  return new Response(`${refusal}\n`, {
    status: 401,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "www-authenticate": 'Bearer realm="metrics"' },
  });
}
