import { LIMIT_KEYS, type LimitKey, restricted } from "./schema";

/** What each key allows, for the people who set limits and the people stopped by one. */
export const LIMIT_HELP: Record<LimitKey, { label: string; help: string }> = {
  monitors: { label: "Monitors", help: "How many monitors the workspace may have." },
  periodicity: { label: "Check frequencies", help: "The frequencies a monitor may use (30s, 1m, 5m, 10m, 30m, 1h)." },
  "multi-region": { label: "Several regions per monitor", help: "Whether one monitor may run from more than one region." },
  "data-retention": { label: "Results kept for", help: 'How long check results are kept, in months ("3 months").' },
  "status-pages": { label: "Status pages", help: "How many public status pages the workspace may have." },
  maintenance: { label: "Maintenance windows", help: "Whether status pages may schedule maintenance." },
  "status-subscribers": { label: "Status page subscribers", help: "Whether visitors may subscribe to a status page by e-mail." },
  "custom-domain": { label: "Custom domains", help: "Whether a status page may be served on its own domain." },
  "password-protection": { label: "Password-protected pages", help: "Whether a status page may ask for a password." },
  "white-label": { label: "White label", help: 'Whether status pages may hide "Powered by Vigil".' },
  notifications: { label: "Notifications", help: "Whether channels send alerts at all." },
  sms: { label: "SMS alerts", help: "Whether SMS and WhatsApp channels may be used." },
  "incident-alerting": { label: "Incident alerting", help: "Whether PagerDuty, Opsgenie and Grafana OnCall channels may be used." },
  "notification-channels": { label: "Notification channels", help: "How many notification channels the workspace may have." },
  members: { label: "Members", help: 'How many people may belong to the workspace (a number or "Unlimited").' },
  "audit-log": { label: "Audit log", help: "Whether the workspace sees its audit log." },
  "private-locations": { label: "Private locations", help: "Whether the workspace may run its own probes (needed to run any check)." },
};

/**
 * Turns text values (a form field, `--set monitors=200`) into the key's type: numbers, true/false,
 * "Unlimited", comma-separated frequencies. Anything else is left as it is for the schema to refuse by name.
 */
export function coerceLimitValues(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(values)) {
    if (typeof raw !== "string" || !LIMIT_KEYS.includes(key as LimitKey)) {
      out[key] = raw;
      continue;
    }
    const text = raw.trim();
    const like = restricted[key as LimitKey];
    if (typeof like === "boolean") out[key] = text === "true" ? true : text === "false" ? false : text;
    else if (Array.isArray(like))
      out[key] = text
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean);
    else if (typeof like === "number" || key === "members")
      out[key] = /^unlimited$/i.test(text) ? "Unlimited" : /^\d[\d,_]*$/.test(text) ? Number(text.replace(/[,_]/g, "")) : text;
    else out[key] = text;
  }
  return out;
}

/** `monitors=200` pairs (the CLI's `--set`) as an object of text values. */
export function parseAssignments(pairs: readonly string[]): { values: Record<string, string>; error?: string } {
  const values: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) return { values, error: `"${pair}" is not key=value (e.g. monitors=200)` };
    const key = pair.slice(0, at).trim();
    if (!LIMIT_KEYS.includes(key as LimitKey)) return { values, error: `"${key}" is not a limit key (one of ${LIMIT_KEYS.join(", ")})` };
    values[key] = pair.slice(at + 1);
  }
  return { values };
}
