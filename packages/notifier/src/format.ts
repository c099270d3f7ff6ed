import type { NotifierEnv } from "./env";
import type { NotificationEvent } from "./event";

/** The parts every channel renders, so that all of them say the same thing. */

export type EventType = NotificationEvent["type"];

export const STATUS_EMOJI: Record<EventType, string> = { error: "🔴", degraded: "🟠", recovered: "🟢", test: "🔔" };

/** Error texts can be whole stack traces; chat providers reject fields over ~1000 characters. */
const MAX_FACT_CHARS = 1000;
/** Keeps every title within the shortest provider limits that matter (Opsgenie 130 is truncated separately). */
const MAX_NAME_CHARS = 200;

export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max - 1).join("") + "…";
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** The name as a single line (it lands in titles, subjects and headers); the URL when it has none. */
export function displayName(event: NotificationEvent): string {
  if (event.notice) return truncate(event.notice.title, MAX_NAME_CHARS);
  const oneLine = (text: string) => text.replace(/\p{Cc}+/gu, " ").trim();
  return truncate(oneLine(event.monitor.name) || oneLine(event.monitor.url), MAX_NAME_CHARS);
}

/** "45 min", "2 h", "1 h 30 min", "3 d 4 h": how long, as a person says it. */
export function humanDuration(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

export function headline(event: NotificationEvent): string {
  if (event.notice) return displayName(event);
  const name = displayName(event);
  const still = event.downForMs !== undefined && event.type !== "recovered" && event.type !== "test";
  switch (event.type) {
    case "error":
      return still ? `${name} is still down for ${humanDuration(event.downForMs!)}` : `${name} is down`;
    case "degraded":
      return still ? `${name} is still degraded for ${humanDuration(event.downForMs!)}` : `${name} is degraded`;
    case "recovered":
      return `${name} has recovered`;
    case "test":
      return `Test notification for ${name}`;
  }
}

export const isoTime = (event: NotificationEvent): string => new Date(event.cronTimestamp).toISOString();

export const monitorLink = (event: NotificationEvent, env: NotifierEnv): string =>
  event.notice?.link ?? `${env.DASHBOARD_URL}/monitors/${event.monitor.id}`;

export const LINK_LABEL = "Open in Vigil";
export const ACK_LABEL = "Acknowledge";

/**
 * Key for deduplicating on the provider side: error, degraded and recovered of one monitor share it,
 * so a recovery resolves the incident the error opened. Tests get their own key so that they never
 * touch, nor get merged into, a real open incident.
 */
export const incidentKey = (event: NotificationEvent): string =>
  event.notice ? event.notice.key : event.type === "test" ? `vigil-monitor-${event.monitor.id}-test` : `vigil-monitor-${event.monitor.id}`;

export interface Fact {
  key: "status" | "url" | "time" | "statusCode" | "latency" | "error" | "acknowledge" | "detail";
  label: string;
  value: string;
}

export function facts(event: NotificationEvent): Fact[] {
  if (event.notice) {
    const detail = event.notice.facts.map((f) => ({ key: "detail" as const, label: f.label, value: truncate(f.value, MAX_FACT_CHARS) }));
    return [...detail, { key: "time", label: "Time", value: isoTime(event) }];
  }
  const list: Fact[] = [
    { key: "status", label: "Status", value: event.type },
    { key: "url", label: "URL", value: event.monitor.url },
    { key: "time", label: "Time", value: isoTime(event) },
  ];
  if (event.statusCode !== undefined) list.push({ key: "statusCode", label: "Status code", value: String(event.statusCode) });
  if (event.latency !== undefined) list.push({ key: "latency", label: "Latency", value: `${Math.round(event.latency)} ms` });
  if (event.errorMessage) list.push({ key: "error", label: "Error", value: event.errorMessage });
  const out = list.map((f) => ({ ...f, value: truncate(f.value, MAX_FACT_CHARS) }));
  // Never truncated: a cut link would not work. The page it opens asks before acknowledging.
  if (event.ackUrl && event.type !== "recovered") out.push({ key: "acknowledge", label: ACK_LABEL, value: event.ackUrl });
  return out;
}

/** The message as plain text: headline, one `Label: value` line per fact, then the dashboard link. */
export function plainText(event: NotificationEvent, env: NotifierEnv): string {
  return [headline(event), ...facts(event).map((f) => `${f.label}: ${f.value}`), `${LINK_LABEL}: ${monitorLink(event, env)}`].join("\n");
}
