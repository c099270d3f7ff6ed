import type { MonitorHealth } from "@vigil/api-contract";
import type { LocationState } from "@vigil/core";
import { ago } from "../../lib/format";
import { regionLabel } from "../../lib/regions";
import { Badge, cx } from "../../ui/ui";

const TONE = { ok: "green", degraded: "amber", error: "red", paused: "zinc", "no-probe": "indigo", "no-data": "zinc" } as const;
export const HEALTH_LABEL: Record<MonitorHealth, string> = {
  ok: "ok",
  degraded: "degraded",
  error: "error",
  paused: "paused",
  "no-probe": "no probe",
  "no-data": "no data",
};
export const HEALTH_HINT: Record<MonitorHealth, string> = {
  ok: "Every location agrees it is up.",
  degraded: "Up, but slower than its degraded threshold.",
  error: "Failing where it is checked.",
  paused: "Not checked and not alerting until resumed.",
  "no-probe": "No private location serves its regions: create one on the Private locations page.",
  "no-data": "Its probes are offline: no recent results.",
};

export function HealthBadge({ health }: { health: MonitorHealth }) {
  return (
    <Badge tone={TONE[health]}>
      <span
        className={cx(
          "size-1.5 rounded-full",
          health === "ok" ? "bg-emerald-500" : health === "error" ? "bg-red-500" : health === "degraded" ? "bg-amber-500" : "bg-zinc-400",
        )}
        aria-hidden
      />
      {HEALTH_LABEL[health]}
    </Badge>
  );
}

const dot = { success: "bg-emerald-500", degraded: "bg-amber-500", error: "bg-red-500" } as const;

function LocationLine({ l, now }: { l: LocationState; now: number }) {
  return (
    <li className="flex items-start gap-2">
      <span className={cx("mt-1.5 size-2 shrink-0 rounded-full", l.status ? dot[l.status] : "bg-zinc-300")} aria-hidden />
      <span>
        <span className="font-medium">{l.name}</span> <span className="text-zinc-400">{regionLabel(l.region)}</span>
        <span className="block text-zinc-300">
          {l.status ?? "no result yet"}
          {l.latencyMs !== null ? ` · ${l.latencyMs} ms` : ""}
          {l.statusCode ? ` · ${l.statusCode}` : ""} · {ago(l.cronTimestamp, now)}
          {l.online ? "" : " · probe offline"}
        </span>
        {l.errorMessage ? <span className="block text-red-300">{l.errorMessage}</span> : null}
      </span>
    </li>
  );
}

/** The health badge; hovering or focusing it shows each location's latest result. */
export function HealthWithLocations({
  health,
  locations,
  now,
  tipId,
}: {
  health: MonitorHealth;
  locations: LocationState[];
  now: number;
  tipId: string;
}) {
  return (
    <span className="group relative inline-flex">
      <button
        type="button"
        aria-describedby={tipId}
        className="cursor-default rounded-full outline-offset-2 focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        <HealthBadge health={health} />
      </button>
      <span
        role="tooltip"
        id={tipId}
        className="invisible absolute top-full left-0 z-30 mt-1.5 w-72 rounded-lg bg-zinc-900 p-3 text-xs text-white opacity-0 shadow-lg transition-opacity group-focus-within:visible group-focus-within:opacity-100 group-hover:visible group-hover:opacity-100"
      >
        <span className="mb-1.5 block text-zinc-300">{HEALTH_HINT[health]}</span>
        {locations.length > 0 ? (
          <ul className="grid gap-1.5">
            {locations.map((l) => (
              <LocationLine key={l.locationId} l={l} now={now} />
            ))}
          </ul>
        ) : null}
      </span>
    </span>
  );
}
