"use client";
import { Segmented } from "../../../ui/segmented";
import { ALL_KINDS } from "./kind-fields";
import { KIND_LABELS } from "./kind-section";
import { type FormKit, Section } from "./parts";

/** Kind, name, key, description and tags. */
export function BasicsSection({ d, set, text, monitorId }: FormKit) {
  return (
    <Section title="What to check">
      <Segmented
        legend="Kind"
        name="kind"
        options={ALL_KINDS.map((k) => [k, KIND_LABELS[k] ?? k] as const)}
        value={d.kind}
        onChange={(kind) => set({ kind })}
        wrap
      />
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
