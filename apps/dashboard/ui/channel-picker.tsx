"use client";
import type { ReactNode } from "react";
import { cx } from "./ui";

/** A checkbox pill's shape; each form adds its own fill, ring and error border. */
export const PILL = "flex cursor-pointer items-center gap-2 rounded-full border px-3 py-1 text-sm has-checked:border-zinc-900";

/** Checkbox pills posted under `name`: checked when their value is selected. */
export function CheckPills({
  name,
  options,
  selected,
  onChange,
  className,
  pillClassName,
}: {
  name: string;
  options: { value: string; label: string; note?: ReactNode }[];
  selected: string[];
  onChange: (selected: string[]) => void;
  className: string;
  pillClassName: string;
}) {
  return (
    <div className={className}>
      {options.map((o) => (
        <label key={o.value} className={pillClassName}>
          <input
            type="checkbox"
            name={name}
            value={o.value}
            checked={selected.includes(o.value)}
            onChange={(e) => onChange(e.target.checked ? [...selected, o.value] : selected.filter((x) => x !== o.value))}
          />
          {o.label}
          {o.note}
        </label>
      ))}
    </div>
  );
}

/** The workspace's notification channels as pills, each with its kind (and whether it is disabled). */
export function ChannelPicker({
  channels,
  ...props
}: Omit<Parameters<typeof CheckPills>[0], "options" | "className"> & { channels: { name: string; kind: string; enabled: boolean }[] }) {
  return (
    <CheckPills
      {...props}
      className="flex flex-wrap gap-2"
      options={channels.map((c) => ({
        value: c.name,
        label: c.name,
        note: (
          <span className="text-xs text-zinc-500">
            {c.kind}
            {c.enabled ? "" : ", disabled"}
          </span>
        ),
      }))}
    />
  );
}

export const pillClass = (...extra: (string | false | undefined)[]) => cx(PILL, ...extra);
