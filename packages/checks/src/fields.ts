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

/** What every response shows in place of a secret value; sending it back keeps the stored one (see keepSecret). */
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

/** A URL's origin (scheme, host, port): where a secret sent with it goes. Null when there is no URL. */
export function originOf(url: string | null | undefined): string | null {
  return url && URL.canParse(url) ? new URL(url).origin : null;
}

/** Where the secrets of one field are sent, before (stored) and after (draft) an edit; null: a fixed destination. */
export interface SecretDestination {
  /** The field as errors name it, e.g. `request.headers`. */
  path: string;
  stored: string | null | undefined;
  draft: string | null | undefined;
}

/** "***" sent where it may not keep a stored secret; every field that broke the rule. */
export class SecretNotKeptError extends Error {
  constructor(readonly issues: { path: string; message: string }[]) {
    super(`${issues[0]!.path}: ${issues[0]!.message}`);
    this.name = "SecretNotKeptError";
  }
}

// No URL: the kind's default destination (the operator's), the same before and after.
const DEFAULT = "(default)";

/**
 * The rule for a secret sent back as "***": it keeps the stored value only while the destination's
 * origin is unchanged, so an edit cannot point a stored secret at another host. Returns the value to
 * use, or the reason it may not be kept.
 */
export function keepSecret(
  stored: unknown,
  draft: unknown,
  to: Pick<SecretDestination, "stored" | "draft">,
): { value: unknown } | { refused: string } {
  if (draft !== REDACTED) return { value: draft };
  if (stored === undefined || stored === null)
    return { refused: `"***" stands for a stored secret, and none is stored here: enter the value` };
  const before = to.stored ? (originOf(to.stored) ?? to.stored) : DEFAULT;
  const after = to.draft ? (originOf(to.draft) ?? to.draft) : DEFAULT;
  if (before !== after)
    return {
      refused: `the URL's origin changed (${before} → ${after}): enter the secret again; "***" keeps a stored secret only for the same origin`,
    };
  return { value: stored };
}

/**
 * A header map with each "***" swapped for the value stored under that name (names compare
 * case-insensitively), under keepSecret's rule; throws SecretNotKeptError naming every refused header.
 */
export function keepStored(
  given: Record<string, string>,
  stored: Record<string, string> | null | undefined,
  to: SecretDestination,
): Record<string, string> {
  const byName = new Map(Object.entries(stored ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const issues: { path: string; message: string }[] = [];
  const out = Object.fromEntries(
    Object.entries(given).map(([k, v]) => {
      const kept = keepSecret(byName.get(k.toLowerCase()), v, to);
      if ("refused" in kept) issues.push({ path: `${to.path}.${k}`, message: kept.refused });
      return [k, "value" in kept ? String(kept.value) : v];
    }),
  );
  if (issues.length > 0) throw new SecretNotKeptError(issues);
  return out;
}
