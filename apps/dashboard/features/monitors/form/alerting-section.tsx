"use client";
import Link from "next/link";
import { ChannelPicker, CheckPills, pillClass } from "../../../ui/channel-picker";
import { Field, Select } from "../../../ui/ui";
import { type FormKit, RowError, Section } from "./parts";

/** Channels, reminders, the escalation policy and the monitors this one depends on. */
export function AlertingSection({
  d,
  set,
  f,
  text,
  workspaceId,
  monitorId,
  channels,
  policies,
  monitors,
}: FormKit & {
  channels: { name: string; kind: string; enabled: boolean }[];
  policies: string[];
  monitors: { id: number; value: string; label: string }[];
}) {
  const dependencies = monitors.filter((o) => o.id !== monitorId);
  return (
    <Section title="Alerts" description="Channels notified when the monitor goes down or recovers, reminders, escalation and dependencies.">
      {channels.length === 0 ? (
        <p className="text-sm text-zinc-500">
          No notification channels yet.{" "}
          <Link className="underline" href={`/w/${workspaceId}/notifications`}>
            Create one
          </Link>{" "}
          to be alerted.
        </p>
      ) : (
        <ChannelPicker
          name="channels"
          channels={channels}
          selected={d.channels}
          onChange={(channels) => set({ channels })}
          pillClassName={pillClass("border-zinc-200 has-checked:bg-zinc-50")}
        />
      )}
      <RowError id="channels-error" error={f("channels") ? `Channels ${f("channels")}` : undefined} />
      <div className="grid gap-4 sm:grid-cols-2">
        {text("remindEvery", "Remind every", {
          hint: d.remindPerChannel
            ? "Reminders per channel are set (YAML or API); empty keeps them, a value here replaces them."
            : "While down and not acknowledged, e.g. 30m or 2h (at least 5m). Empty: no reminders.",
          placeholder: "e.g. 30m",
          mono: true,
        })}
        <Field label="Escalation policy" name="escalationPolicy" error={f("escalationPolicy")}>
          <Select
            id="escalationPolicy"
            name="escalationPolicy"
            value={d.escalationPolicy}
            onChange={(e) => set({ escalationPolicy: e.target.value })}
            invalid={!!f("escalationPolicy")}
            aria-describedby={f("escalationPolicy") ? "escalationPolicy-error" : "escalationPolicy-hint"}
          >
            <option value="">None: only the channels above</option>
            {(policies.includes(d.escalationPolicy) || !d.escalationPolicy ? policies : [d.escalationPolicy, ...policies]).map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </Select>
          {f("escalationPolicy") ? null : (
            <p id="escalationPolicy-hint" className="text-xs text-zinc-500">
              Who else hears while nobody acknowledges.{" "}
              <Link className="underline" href={`/w/${workspaceId}/escalation`}>
                Escalation policies
              </Link>
            </p>
          )}
        </Field>
      </div>
      <fieldset className="grid min-w-0 gap-2" aria-describedby="dependsOn-hint">
        <legend className="mb-1.5 text-sm font-medium text-zinc-800">Depends on</legend>
        <p id="dependsOn-hint" className="-mt-1 text-xs text-zinc-500">
          While one of these is down, this monitor's alerts are held and logged as suppressed.
        </p>
        {dependencies.length === 0 ? (
          <p className="text-sm text-zinc-500">No other monitors in this workspace yet.</p>
        ) : (
          <CheckPills
            name="dependsOn"
            options={dependencies}
            selected={d.dependsOn}
            onChange={(dependsOn) => set({ dependsOn })}
            className="flex max-h-48 flex-wrap gap-2 overflow-y-auto"
            pillClassName={pillClass(
              "has-checked:bg-zinc-50 has-focus-visible:ring-2 has-focus-visible:ring-zinc-400",
              f("dependsOn") ? "border-red-300" : "border-zinc-200",
            )}
          />
        )}
        <RowError id="dependsOn-error" error={f("dependsOn") ? `Depends on ${f("dependsOn")}` : undefined} />
      </fieldset>
    </Section>
  );
}
