import { REDACTED } from "@vigil/api-contract";
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

/** Where header values live in an entry: request headers and OTLP headers. */
const HEADER_PATHS: readonly (readonly string[])[] = [
  ["request", "headers"],
  ["openTelemetry", "headers"],
];

export interface MissingVariable {
  path: Segment[];
  name: string;
}

/**
 * Fills `${NAME}` placeholders in an entry's header values from `env`, in place. Returns the
 * placeholders whose variable is not set, so nothing is uploaded with a placeholder left in it.
 */
export function fillPlaceholders(entry: Record<string, unknown>, env: Record<string, string | undefined>): MissingVariable[] {
  const missing: MissingVariable[] = [];
  for (const at of HEADER_PATHS) {
    let holder: unknown = entry;
    for (const seg of at) holder = holder && typeof holder === "object" ? (holder as Record<string, unknown>)[seg] : undefined;
    if (!holder || typeof holder !== "object" || Array.isArray(holder)) continue;
    const headers = holder as Record<string, unknown>;
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value !== "string") continue;
      headers[name] = value.replace(PLACEHOLDER_RE, (whole, variable: string) => {
        const v = env[variable];
        if (v === undefined) {
          missing.push({ path: [...at, name], name: variable });
          return whole;
        }
        return v;
      });
    }
  }
  return missing;
}
