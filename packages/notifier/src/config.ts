import { toIssues } from "@vigil/api-contract";
import type { z } from "zod";
import { CHANNEL_KINDS, type ChannelKind, channels, isChannelKind } from "./registry";

export type ChannelConfig<K extends ChannelKind = ChannelKind> = z.output<(typeof channels)[K]["config"]>;

export type ConfigIssue = { path: string; message: string };
export type ValidatedConfig<K extends ChannelKind> = { ok: true; config: ChannelConfig<K> } | { ok: false; issues: ConfigIssue[] };

/** Checks a channel's config against its kind; issues carry the field's dotted path, as the REST errors do. */
export function validateChannelConfig<K extends ChannelKind>(kind: K, config: unknown): ValidatedConfig<K>;
export function validateChannelConfig(kind: string, config: unknown): ValidatedConfig<ChannelKind>;
export function validateChannelConfig(kind: string, config: unknown): ValidatedConfig<ChannelKind> {
  if (!isChannelKind(kind)) return { ok: false, issues: [{ path: "kind", message: `must be one of ${CHANNEL_KINDS.join(", ")}` }] };
  if (typeof config !== "object" || config === null || Array.isArray(config))
    return { ok: false, issues: [{ path: "", message: "must be an object" }] };
  const parsed = channels[kind].config.safeParse(config);
  return parsed.success ? { ok: true, config: parsed.data } : { ok: false, issues: toIssues(parsed.error) };
}

export { REDACTED } from "@vigil/api-contract";

import { REDACTED } from "@vigil/api-contract";

/**
 * A copy of the config safe for logs and API responses: each secret value becomes "***" (for a map
 * such as webhook headers, each value, so the names stay visible). An unknown kind has every value redacted.
 */
export function redactConfig(kind: string, config: unknown): Record<string, unknown> {
  if (typeof config !== "object" || config === null || Array.isArray(config)) return {};
  const secrets: readonly string[] | undefined = isChannelKind(kind) ? channels[kind].secrets : undefined;
  return Object.fromEntries(
    Object.entries(config).map(([key, value]) => {
      if (value === undefined || (secrets !== undefined && !secrets.includes(key))) return [key, value];
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        return [key, Object.fromEntries(Object.keys(value).map((k) => [k, REDACTED]))];
      }
      return [key, REDACTED];
    }),
  );
}
