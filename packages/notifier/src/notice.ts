import type { NotificationEvent } from "./event";
import { humanDuration } from "./format";

export interface LocationNoticeInput {
  state: "silent" | "back";
  location: { id: number; workspaceId: number; name: string; region: string };
  /** When its probes were last heard from (silent), or when the silence was told (back). */
  sinceMs: number;
}

/**
 * A private location whose probes all fell silent (or came back), as a text notice for the workspace's
 * channels: an error that opens one pager incident per location, and the recovery that resolves it.
 */
export function locationNotice(input: LocationNoticeInput, dashboardUrl: string, nowMs = Date.now()): NotificationEvent {
  const { location, state } = input;
  const silent = state === "silent";
  const name = location.name.replace(/\p{Cc}+/gu, " ").trim() || `#${location.id}`;
  const link = `${dashboardUrl}/w/${location.workspaceId}/locations/${location.id}`;
  const facts = [
    { label: "Location", value: `${name} (${location.region})` },
    silent
      ? { label: "Last heard from", value: new Date(input.sinceMs).toISOString() }
      : { label: "Silent for about", value: humanDuration(Math.max(0, nowMs - input.sinceMs)) },
    {
      label: silent ? "Meanwhile" : "The silence",
      value: silent
        ? "its monitors' slots have no result from it (no data, counted as missed slots), so an outage there cannot alert"
        : "its monitors' slots without a result stay no data and are counted in vigil_location_slots_missed_total",
    },
  ];
  return {
    type: silent ? "error" : "recovered",
    monitor: { id: 0, name, url: link },
    cronTimestamp: nowMs,
    notice: {
      kind: silent ? "location-silent" : "location-back",
      key: `vigil-location-${location.id}`,
      title: silent ? `Private location ${name} is silent: none of its probes report` : `Private location ${name} reports again`,
      link,
      facts,
    },
  };
}
