import { z } from "zod";

export const HeaderName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "must be a valid HTTP header name");

export const HeaderMap = z.record(HeaderName, z.string().regex(/^[^\r\n]*$/, "must not contain line breaks"));

export const httpUrl = (what: string) =>
  z
    .string()
    .url(`must be a ${what} URL`)
    .refine((u) => !URL.canParse(u) || /^https?:$/.test(new URL(u).protocol), `must be an http:// or https:// ${what} URL`);

/** Header names whose values are credentials however they are spelled; the user may mark more. */
const SECRET_HEADER_RE =
  /^(authorization|proxy-authorization|cookie|x-api-key)$|token|secret|passw|api-?key|session|signature|credential|auth/i;

/** Whether a request header's value is a secret: by its name, or because the user marked it. */
export function isSecretHeader(name: string, marked: readonly string[] = []): boolean {
  const lower = name.toLowerCase();
  return SECRET_HEADER_RE.test(name) || marked.some((m) => m.toLowerCase() === lower);
}

/** What every response shows in place of a secret value; sending it back keeps the stored one. */
export const REDACTED = "***";

/** Query keys whose values are credentials, beyond what a secret header name already says. */
const SECRET_QUERY_RE = /^(key|code|sig|pass|pwd|hmac|jwt)$|[-_]key$|^api[-_]?key|_sig$/i;

/** Whether a URL query parameter (or fragment parameter) carries a credential, judged by its name. */
export function isSecretQueryKey(name: string): boolean {
  let key = name;
  try {
    key = decodeURIComponent(name);
  } catch {}
  return SECRET_QUERY_RE.test(key) || isSecretHeader(key);
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/** A credential inside a URL: its userinfo, or the value of the query or fragment parameter `key`. */
export type UrlSecret = { part: "userinfo" } | { part: "param"; key: string };

/**
 * Every URL in `text` with each credential (the userinfo, and the values of secret query and fragment
 * parameters) replaced by what `replace` returns for it; the rest of the text, and of each URL, is
 * kept as written.
 */
export function replaceUrlSecrets(text: string, replace: (secret: UrlSecret, value: string) => string): string {
  return text.replace(URL_IN_TEXT, (url) =>
    url
      .replace(
        /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i,
        (_all, scheme: string, userinfo: string) => `${scheme}${replace({ part: "userinfo" }, userinfo)}@`,
      )
      .replace(/([?&;#])([^=&;#]+)=([^&;#]*)/g, (param, sep: string, key: string, value: string) =>
        isSecretQueryKey(key) ? `${sep}${key}=${replace({ part: "param", key }, value)}` : param,
      ),
  );
}

/** `https://user:pass@host/x?token=abc&page=2` becomes `https://***@host/x?token=***&page=2`, wherever it stands in `text`. */
export const redactUrl = (text: string): string => replaceUrlSecrets(text, () => REDACTED);

/** "***" sent back for a header keeps the value stored under that name (names compare case-insensitively). */
export function keepStored(given: Record<string, string>, stored: Record<string, string> | null | undefined): Record<string, string> {
  const byName = new Map(Object.entries(stored ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  return Object.fromEntries(Object.entries(given).map(([k, v]) => [k, v === REDACTED ? (byName.get(k.toLowerCase()) ?? "") : v]));
}
