"use client";
import Link from "next/link";
import { LiftHint } from "../../../ui/lift-hint";
import { cx, Field, Notice, Select } from "../../../ui/ui";
import { type FormKit, RowError, Section } from "./parts";

export interface LocationOption {
  region: string;
  label: string;
  /** Names of the private locations serving it (empty: no probe runs it). */
  locations: { name: string; online: boolean }[];
}

/** Server-side kinds run on no probe: only whether the monitor is active. */
export function StateSection({ d, set }: FormKit) {
  return (
    <Section title="State">
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="active" checked={d.active} onChange={(e) => set({ active: e.target.checked })} />
        Active (uncheck to pause: pings are refused and no alert is sent)
      </label>
    </Section>
  );
}

/** Frequency, timeouts, retries, thresholds and the locations that run the check. */
export function ScheduleSection({
  d,
  set,
  f,
  text,
  workspaceId,
  frequencies,
  multiRegion,
  locations,
  locationsRefused,
}: FormKit & {
  frequencies: string[];
  multiRegion: boolean;
  locations: LocationOption[];
  locationsRefused?: Record<string, string>;
}) {
  const freqOptions = frequencies.includes(d.frequency) || !d.frequency ? frequencies : [d.frequency, ...frequencies];
  const regionOptions = locations;
  const toggleRegion = (r: string, on: boolean) =>
    set({ regions: multiRegion ? (on ? [...d.regions, r] : d.regions.filter((x) => x !== r)) : on ? [r] : [] });
  return (
    <Section title="Schedule and locations">
      <div className="grid gap-4 sm:grid-cols-4">
        <Field label="Frequency" name="frequency" error={f("frequency")} hint="The choices your workspace's limits allow.">
          <Select
            id="frequency"
            name="frequency"
            value={d.frequency}
            onChange={(e) => set({ frequency: e.target.value })}
            invalid={!!f("frequency")}
          >
            {freqOptions.map((x) => (
              <option key={x} value={x}>
                every {x}
              </option>
            ))}
          </Select>
        </Field>
        {text("timeout", "Timeout", { hint: "e.g. 45s, 800ms (max 120s)" })}
        {text("degradedAfter", "Degraded after", { hint: "Slower than this is degraded.", placeholder: "e.g. 2s" })}
        {text("retry", "Retries", { hint: "Before a check counts as failed (0-10).", inputMode: "numeric" })}
        {text("failureThreshold", "Failures before alert", {
          hint: "Failed checks in a row before the monitor is down (1-100).",
          inputMode: "numeric",
        })}
        {text("successThreshold", "Successes before recovery", {
          hint: "Good checks in a row before it is back up (1-100).",
          inputMode: "numeric",
        })}
      </div>
      <fieldset className="grid min-w-0 gap-2">
        <legend className="mb-1.5 text-sm font-medium text-zinc-800">
          Locations{" "}
          <span className="font-normal text-zinc-500">
            {multiRegion ? "(one or more)" : "(one: your limits do not include multi-region)"}
          </span>
        </legend>
        {regionOptions.length === 0 && locationsRefused ? (
          <div data-testid="no-locations">
            <Notice>
              Checks run on private locations, and this workspace's limits do not allow any yet, so a monitor cannot be saved here.
              <LiftHint info={locationsRefused} />
            </Notice>
          </div>
        ) : regionOptions.length === 0 ? (
          <div data-testid="no-locations">
            <Notice>
              This workspace has no private location yet, so nothing would run this monitor and it cannot be saved.{" "}
              <Link className="underline" href={`/w/${workspaceId}/locations`}>
                Create one
              </Link>{" "}
              and start its probe, then come back.
            </Notice>
          </div>
        ) : (
          <div className="grid gap-2 sm:grid-cols-2">
            {regionOptions.map((o) => (
              <label
                key={o.region}
                className={cx(
                  "flex cursor-pointer items-start gap-2.5 rounded-lg border px-3 py-2 text-sm has-checked:border-zinc-900 has-checked:bg-zinc-50",
                  f("regions") ? "border-red-300" : "border-zinc-200",
                )}
              >
                <input
                  type={multiRegion ? "checkbox" : "radio"}
                  name="regions"
                  value={o.region}
                  checked={d.regions.includes(o.region)}
                  onChange={(e) => toggleRegion(o.region, e.target.checked)}
                  className="mt-0.5"
                />
                <span>
                  <span className="font-medium">{o.label}</span>
                  <span className="block text-xs text-zinc-500">
                    {o.locations.length === 0
                      ? "no probe runs here"
                      : o.locations.map((l) => `${l.name} (${l.online ? "online" : "offline"})`).join(", ")}
                  </span>
                </span>
              </label>
            ))}
          </div>
        )}
        <RowError id="regions-error" error={f("regions") ? `Locations ${f("regions")}` : undefined} />
      </fieldset>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="active" checked={d.active} onChange={(e) => set({ active: e.target.checked })} />
        Active (uncheck to pause checks)
      </label>
    </Section>
  );
}
