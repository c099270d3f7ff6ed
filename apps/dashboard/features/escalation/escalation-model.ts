// The escalation policy form's model: what the inputs hold, to and from the shared EscalationPolicyInput.
// Pure: the client form and the server actions both use it.
import type { EscalationPolicy, EscalationPolicyInput, EscalationStepInput } from "@vigil/api-contract";
import type { z } from "zod";
import type { PostedFor } from "../../lib/posted";

/** A step as the form holds it: the shared step's fields, numbers as typed (minutes after the alert). */
export type StepRow = {
  [K in keyof z.input<typeof EscalationStepInput>]: z.input<typeof EscalationStepInput>[K] extends number ? string : string[];
};
export interface PolicyDraft {
  name: string;
  steps: StepRow[];
  repeat: boolean;
  /** As typed; minutes between repeats of the last step. */
  repeatEvery: string;
}

export interface PolicyFormState {
  error?: string;
  /** Form field (`name`, `step.1.channels`...) → the rule it broke. */
  fields?: Record<string, string>;
  /** After a refused save without JavaScript: the form as posted. */
  draft?: PolicyDraft;
  at?: number;
}

export const emptyStep = (afterMinutes = "0"): StepRow => ({ afterMinutes, channels: [] });

export const emptyPolicyDraft = (): PolicyDraft => ({ name: "", steps: [emptyStep()], repeat: false, repeatEvery: "30" });

export function policyDraftOf(p: EscalationPolicy): PolicyDraft {
  return {
    name: p.name,
    steps: p.steps.map((s) => ({ afterMinutes: String(s.afterMinutes), channels: s.channels })),
    repeat: p.repeatLastEveryMinutes !== null,
    repeatEvery: p.repeatLastEveryMinutes === null ? "30" : String(p.repeatLastEveryMinutes),
  };
}

/** What the browser posted: steps are `step.<i>.afterMinutes` and `step.<i>.channels`, in index order. */
export function policyDraftFromForm(form: FormData): PolicyDraft {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const indexes = [...form.keys()]
    .map((k) => /^step\.(\d{1,2})\.afterMinutes$/.exec(k)?.[1])
    .filter((i): i is string => i !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  return {
    name: text("name"),
    steps: indexes.map((i) => ({
      afterMinutes: text(`step.${i}.afterMinutes`),
      channels: form.getAll(`step.${i}.channels`).filter((v): v is string => typeof v === "string"),
    })),
    repeat: text("repeat") === "on",
    repeatEvery: text("repeatEvery"),
  };
}

/** Digits become a number; anything else is left for the schema to name. */
const minutes = (s: string): number | string | undefined => {
  const t = s.trim();
  if (t === "") return undefined;
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : t;
};

/** The draft as the shared schema's input (not yet validated: the schema says what is wrong). */
export function policyInputOf(d: PolicyDraft): PostedFor<typeof EscalationPolicyInput> {
  return {
    name: d.name,
    steps: d.steps.map((s) => ({ afterMinutes: minutes(s.afterMinutes), channels: s.channels })),
    repeatLastEveryMinutes: d.repeat ? (minutes(d.repeatEvery) ?? "") : null,
  };
}

/** Where a schema issue shows in the form: `steps.1.channels.0` → `step.1.channels`, `repeatLastEveryMinutes` → `repeatEvery`. */
export function policyFieldOf(path: string): string {
  const step = /^steps\.(\d+)\.(afterMinutes|channels)/.exec(path);
  if (step) return `step.${step[1]}.${step[2]}`;
  if (path.startsWith("repeatLastEveryMinutes")) return "repeatEvery";
  if (path.startsWith("steps")) return "steps";
  return path.split(".")[0] || "form";
}

/** How a step reads in the list: "at once", "after 15 min". */
export const stepDelay = (afterMinutes: number) =>
  afterMinutes === 0 ? "at once" : afterMinutes < 1 ? `after ${Math.round(afterMinutes * 60)} s` : `after ${afterMinutes} min`;
