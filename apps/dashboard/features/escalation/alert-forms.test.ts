// The alert settings of the monitor form and the escalation policy form, from what the browser posts to the
// shared schemas (the same ones the API and YAML use), field errors landing beside their inputs.
import { EscalationPolicyInput, type Monitor, MonitorInput } from "@vigil/api-contract";
import { describe, expect, it } from "vitest";
import { draftOf, emptyDraft } from "../monitors/form/draft";
import { storedMonitorBase } from "../monitors/form/fixtures";
import { fieldOf, inputOf } from "../monitors/form/input";
import { draftFromForm } from "../monitors/form/posted";
import { policyDraftFromForm, policyFieldOf, policyInputOf } from "./escalation-model";

const tcp = (extra: Partial<Monitor>): Monitor =>
  ({
    ...storedMonitorBase(),
    id: 3,
    key: "api",
    name: "API",
    tags: [],
    failureThreshold: 3,
    successThreshold: 2,
    timeout: 45_000,
    channels: ["pager"],
    kind: "tcp",
    request: { host: "db.internal", port: 5432 },
    ...extra,
  }) as Monitor;

/** What the browser posts: each field in order, a repeated name once per value. */
function posted(fields: [string, string][]): FormData {
  const f = new FormData();
  for (const [k, v] of fields) f.append(k, v);
  return f;
}

describe("the monitor form's alert settings", () => {
  it("a stored monitor's reminder, policy and dependencies come back unchanged through the form", () => {
    const d = draftOf(tcp({ remindEvery: 7_200_000, escalationPolicy: "on-call", dependsOn: ["db", 9] }));
    expect(d).toMatchObject({ remindEvery: "2h", escalationPolicy: "on-call", dependsOn: ["db", "#9"], failureThreshold: "3" });
    const f = posted([
      ["kind", "tcp"],
      ["host", "db.internal"],
      ["port", "5432"],
      ["frequency", "1m"],
      ["regions", "iad"],
      ["failureThreshold", d.failureThreshold],
      ["successThreshold", d.successThreshold],
      ["remindEvery", d.remindEvery],
      ["escalationPolicy", d.escalationPolicy],
      ["dependsOn", "db"],
      ["dependsOn", "#9"],
    ]);
    expect(MonitorInput.parse(inputOf(draftFromForm(f)))).toMatchObject({
      failureThreshold: 3,
      successThreshold: 2,
      remindEvery: 7_200_000,
      escalationPolicy: "on-call",
      dependsOn: ["db", 9],
    });
  });

  it("emptied fields clear reminders, policy and dependencies, but keep reminders set per channel elsewhere", () => {
    const cleared = inputOf(emptyDraft("1m", ["iad"]));
    expect(cleared).toMatchObject({ remindEvery: null, escalationPolicy: null, dependsOn: [] });
    const perChannel = draftOf(tcp({ remindEvery: { pager: 1_800_000 } }));
    expect(perChannel).toMatchObject({ remindEvery: "", remindPerChannel: true });
    expect(inputOf(perChannel)).toHaveProperty("remindEvery", undefined);
  });

  it("a threshold of 0 or 101 and a reminder under 5 minutes are refused beside their fields", () => {
    const d = { ...emptyDraft("1m", ["iad"]), kind: "tcp" as const, host: "db", port: "5432" };
    const bad = MonitorInput.safeParse(inputOf({ ...d, failureThreshold: "0", successThreshold: "101", remindEvery: "2m" }));
    expect(bad.error?.issues.map((i) => [fieldOf(i.path.join(".")), i.message])).toEqual([
      ["failureThreshold", "must be 1-100"],
      ["successThreshold", "must be 1-100"],
      ["remindEvery", "must be at least 5 minutes"],
    ]);
  });
});

describe("the escalation policy form", () => {
  it("steps come in their order, with gaps left by removed rows, and a step without a channel is refused beside it", () => {
    const f = posted([
      ["name", "on-call"],
      ["step.0.afterMinutes", "0"],
      ["step.0.channels", "pager"],
      ["step.0.channels", "chat"],
      ["step.3.afterMinutes", "15"],
      ["repeat", "on"],
      ["repeatEvery", "30"],
    ]);
    const d = policyDraftFromForm(f);
    expect(d.steps).toEqual([
      { afterMinutes: "0", channels: ["pager", "chat"] },
      { afterMinutes: "15", channels: [] },
    ]);
    const bad = EscalationPolicyInput.safeParse(policyInputOf(d));
    expect(bad.error?.issues.map((i) => [policyFieldOf(i.path.join(".")), i.message])).toEqual([
      ["step.1.channels", "must list at least one channel"],
    ]);
    d.steps[1]!.channels = ["lead"];
    expect(EscalationPolicyInput.parse(policyInputOf(d))).toEqual({
      name: "on-call",
      steps: [
        { afterMinutes: 0, channels: ["pager", "chat"] },
        { afterMinutes: 15, channels: ["lead"] },
      ],
      repeatLastEveryMinutes: 30,
    });
  });

  it("an empty name, minutes that are not a number and a repeat under a minute are refused naming the step or field", () => {
    const f = posted([
      ["name", " "],
      ["step.0.afterMinutes", "10"],
      ["step.0.channels", "pager"],
      ["step.1.afterMinutes", "5"],
      ["step.1.channels", "pager"],
      ["step.2.afterMinutes", "soon"],
      ["step.2.channels", "pager"],
      ["repeat", "on"],
      ["repeatEvery", "0"],
    ]);
    const bad = EscalationPolicyInput.safeParse(policyInputOf(policyDraftFromForm(f)));
    expect(Object.fromEntries(bad.error!.issues.map((i) => [policyFieldOf(i.path.join(".")), i.message]))).toEqual({
      name: "must not be empty",
      "step.2.afterMinutes": "must be a number of minutes",
      repeatEvery: "must be at least 1 minute",
    });
  });
});
