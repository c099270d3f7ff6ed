import { REDACTED, replaceUrlSecrets } from "@vigil/api-contract";
import type { Segment } from "./positions";

/** `${NAME}` in a header value: filled from the environment when the file is read for upload. */
const PLACEHOLDER_RE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

const envPart = (s: string) =>
  s
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");

/** The variable an exported file asks for in place of a secret: `API_HEALTH_AUTHORIZATION`, `API_HEALTH_OTLP_AUTHORIZATION`. */
export function secretEnvName(entryKey: string, header: string, otlp = false): string {
  const name = [envPart(entryKey), otlp ? "OTLP" : "", envPart(header)].filter(Boolean).join("_");
  return /^[0-9]/.test(name) ? `VIGIL_${name}` : name;
}

/** Header values the server redacted become `${VAR}` placeholders, so an exported file holds no secret and round-trips. */
export function placeholders(headers: Record<string, string>, entryKey: string, otlp = false): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === REDACTED ? `\${${secretEnvName(entryKey, k, otlp)}}` : v]));
}

/**
 * A request URL's credentials (userinfo, token-like query values) become `${VAR}` placeholders too:
 * `https://${API_HEALTH_URL_USERINFO}@host/x?token=${API_HEALTH_URL_TOKEN}&page=2`.
 */
export function urlPlaceholders(url: string, entryKey: string): string {
  return replaceUrlSecrets(url, (secret, value) =>
    value === "" ? value : `\${${secretEnvName(entryKey, secret.part === "userinfo" ? "url userinfo" : `url ${secret.key}`)}}`,
  );
}

/** Where placeholders may stand in an entry: request and OTLP header values, the request URL, a database's connection string. */
const SECRET_PATHS: readonly (readonly string[])[] = [
  ["request", "headers"],
  ["openTelemetry", "headers"],
  ["request", "url"],
  ["request", "connection"],
];

export interface MissingVariable {
  path: Segment[];
  name: string;
}

/**
 * Fills `${NAME}` placeholders in an entry's header values and request URL from `env`, in place.
 * Returns the placeholders whose variable is not set, so nothing is uploaded with a placeholder left in it.
 */
export function fillPlaceholders(entry: Record<string, unknown>, env: Record<string, string | undefined>): MissingVariable[] {
  const missing: MissingVariable[] = [];
  const fill = (value: string, path: Segment[]) =>
    value.replace(PLACEHOLDER_RE, (whole, variable: string) => {
      const v = env[variable];
      if (v !== undefined) return v;
      missing.push({ path, name: variable });
      return whole;
    });
  for (const at of SECRET_PATHS) {
    let parent: unknown;
    let holder: unknown = entry;
    for (const seg of at) {
      parent = holder;
      holder = holder && typeof holder === "object" ? (holder as Record<string, unknown>)[seg] : undefined;
    }
    if (typeof holder === "string") {
      (parent as Record<string, unknown>)[at.at(-1) as string] = fill(holder, [...at]);
      continue;
    }
    if (!holder || typeof holder !== "object" || Array.isArray(holder)) continue;
    const headers = holder as Record<string, unknown>;
    for (const [name, value] of Object.entries(headers)) if (typeof value === "string") headers[name] = fill(value, [...at, name]);
  }
  return missing;
}
