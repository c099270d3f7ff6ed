"use client";
import { cx } from "./ui";

/** A choice of a few as one row of radio buttons, the chosen one raised; `wrap` lets a long row break. */
export function Segmented<T extends string>({
  legend,
  name,
  options,
  value,
  onChange,
  wrap,
}: {
  legend: string;
  name: string;
  options: readonly (readonly [T, string])[];
  value: T;
  onChange: (value: T) => void;
  wrap?: boolean;
}) {
  return (
    <fieldset className="grid gap-1.5">
      <legend className="mb-1.5 text-sm font-medium text-zinc-800">{legend}</legend>
      <div className={cx("inline-flex w-fit", wrap && "flex-wrap", "rounded-lg border border-zinc-300 bg-zinc-50 p-0.5")} role="radiogroup">
        {options.map(([option, label]) => (
          <label
            key={option}
            className={cx(
              "cursor-pointer rounded-md px-3.5 py-1.5 text-sm font-medium has-focus-visible:ring-2 has-focus-visible:ring-zinc-400",
              value === option ? "bg-white text-zinc-900 shadow-xs" : "text-zinc-500",
            )}
          >
            <input
              type="radio"
              name={name}
              value={option}
              checked={value === option}
              onChange={() => onChange(option)}
              className="sr-only"
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
