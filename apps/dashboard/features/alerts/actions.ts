"use server";
// Escalation policies and acknowledgements. Audience: members and above of the form's workspace (a viewer is
// refused, another workspace's ids answer 404), the same core calls as /v1/escalation-policies and /v1/monitors/:id/ack.
import { type EscalationPolicy, EscalationPolicyInput } from "@vigil/api-contract";
import {
  acknowledgeAlert,
  ConflictError,
  createEscalationPolicy,
  deleteEscalationPolicy,
  NotFoundError,
  updateEscalationPolicy,
  ValidationError,
} from "@vigil/core";
import { revalidatePath } from "next/cache";
import { notFound, redirect } from "next/navigation";
import type { ActionState } from "../../lib/action-state";
import { getDb } from "../../lib/db";
import { log } from "../../lib/log";
import { actionMember } from "../../lib/session";
import { type PolicyDraft, type PolicyFormState, policyDraftFromForm, policyFieldOf, policyInputOf } from "../escalation/escalation-model";

const idOf = (form: FormData, name: string) => {
  const raw = String(form.get(name) ?? "");
  return /^\d{1,15}$/.test(raw) ? Number(raw) : null;
};

function fieldErrors(issues: { path: string; message: string }[]) {
  const fields: Record<string, string> = {};
  for (const i of issues) fields[policyFieldOf(i.path)] ??= i.message;
  return fields;
}

function policyRefused(err: unknown, draft: PolicyDraft): PolicyFormState {
  const at = Date.now();
  if (err instanceof ValidationError) return { error: `Not saved: ${err.message}`, fields: fieldErrors(err.issues), draft, at };
  if (err instanceof ConflictError) return { error: `Not saved: ${err.message}`, fields: { name: "is already taken" }, draft, at };
  if (err instanceof NotFoundError) notFound();
  log().error({ err }, "escalation policy action failed");
  return { error: "Something went wrong on our side; nothing was changed. Try again.", draft, at };
}

/** Creates or (with `id`) replaces a policy; nothing is written unless every field passes. */
export async function savePolicyAction(_prev: PolicyFormState, form: FormData): Promise<PolicyFormState> {
  const m = await actionMember(form);
  if (!m.ok) return { error: m.error, at: Date.now() };
  const draft = policyDraftFromForm(form);
  const parsed = EscalationPolicyInput.safeParse(policyInputOf(draft));
  if (!parsed.success) {
    const fields = fieldErrors(parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })));
    const [field, rule] = Object.entries(fields)[0]!;
    return {
      error: `Not saved: ${field.replace(/^step\.(\d+)\./, (_, i) => `step ${Number(i) + 1} `)} ${rule}`,
      fields,
      draft,
      at: Date.now(),
    };
  }
  const id = idOf(form, "id");
  const actor = `user:${m.user.id}`;
  let saved: EscalationPolicy;
  try {
    saved =
      id === null
        ? await createEscalationPolicy(getDb(), m.workspace.id, parsed.data, actor)
        : await updateEscalationPolicy(getDb(), m.workspace.id, id, parsed.data, actor);
  } catch (err) {
    return policyRefused(err, draft);
  }
  revalidatePath(`/w/${m.workspace.id}/escalation`);
  redirect(`/w/${m.workspace.id}/escalation?saved=${saved.id}`);
}

/** Deletes a policy; its monitors keep alerting their own channels. */
export async function deletePolicyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form);
  if (!m.ok) return { error: m.error, at: Date.now() };
  const id = idOf(form, "policyId");
  if (id === null) notFound();
  try {
    await deleteEscalationPolicy(getDb(), m.workspace.id, id, `user:${m.user.id}`);
  } catch (err) {
    if (err instanceof NotFoundError) notFound();
    log().error({ err }, "escalation policy delete failed");
    return { error: "Something went wrong on our side; nothing was changed. Try again.", at: Date.now() };
  }
  revalidatePath(`/w/${m.workspace.id}/escalation`);
  redirect(`/w/${m.workspace.id}/escalation?deleted=1`);
}

/** Acknowledges the monitor's open alert: its reminders and escalation stop; the incident and audit log say who. */
export async function acknowledgeAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form);
  if (!m.ok) return { error: m.error, at: Date.now() };
  const id = idOf(form, "monitorId");
  if (id === null) notFound();
  try {
    await acknowledgeAlert(getDb(), m.workspace.id, { monitorId: id }, `user:${m.user.id}`, "dashboard");
  } catch (err) {
    if (err instanceof NotFoundError) notFound();
    if (err instanceof ConflictError) return { error: err.message, at: Date.now() };
    log().error({ err }, "acknowledge failed");
    return { error: "Something went wrong on our side; nothing was changed. Try again.", at: Date.now() };
  }
  // The monitor's page and the list (whose row offered the button) both show it acknowledged.
  revalidatePath(`/w/${m.workspace.id}/monitors/${id}`);
  revalidatePath(`/w/${m.workspace.id}/monitors`);
  return { ok: true, at: Date.now() };
}
