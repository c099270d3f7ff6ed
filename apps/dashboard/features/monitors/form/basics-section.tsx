"use client";
import { cx } from "../../../ui/ui";
import { ALL_KINDS } from "./kind-fields";
import { KIND_LABELS } from "./kind-section";
import { type FormKit, Section } from "./parts";

/** Kind, name, key, description and tags. */
export function BasicsSection({ d, set, text, monitorId }: FormKit) {
  return (
    <Section title="What to check">
      <fieldset className="grid gap-1.5">
        <legend className="mb-1.5 text-sm font-medium text-zinc-800">Kind</legend>
        <div className="inline-flex w-fit flex-wrap rounded-lg border border-zinc-300 bg-zinc-50 p-0.5" role="radiogroup">
          {ALL_KINDS.map((k) => (
            <label
              key={k}
              className={cx(
                "cursor-pointer rounded-md px-3.5 py-1.5 text-sm font-medium has-focus-visible:ring-2 has-focus-visible:ring-zinc-400",
                d.kind === k ? "bg-white text-zinc-900 shadow-xs" : "text-zinc-500",
              )}
            >
              <input type="radio" name="kind" value={k} checked={d.kind === k} onChange={() => set({ kind: k })} className="sr-only" />
              {KIND_LABELS[k] ?? k}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        {text("name", "Name", { hint: "Shown in the list, alerts and status pages.", placeholder: "API health" })}
        {text("key", "Key", {
          hint: monitorId
            ? "The YAML entry key: apply matches monitors by it."
            : "The YAML entry key; left empty, it is made from the name.",
          placeholder: "api-health",
          mono: true,
        })}
      </div>
      {text("description", "Description")}
      {text("tags", "Tags", {
        hint: "Separated by commas or spaces; the monitor list filters by them.",
        placeholder: "prod, team:payments",
        mono: true,
      })}
    </Section>
  );
}
