"use server";
import { type ApiKeyScope, createApiKey, revokeApiKey } from "@vigil/core";
import { revalidatePath } from "next/cache";
import { notFound } from "next/navigation";
import { failed, idOf } from "../../lib/action-failure";
import type { ActionState } from "../../lib/action-state";
import { getDb } from "../../lib/db";
import { actionMember } from "../../lib/session";

export async function createApiKeyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form, "admin");
  if (!m.ok) return { error: m.error, at: Date.now() };
  try {
    const scopes = form.getAll("scopes").map(String) as ApiKeyScope[];
    const k = await createApiKey(getDb(), m.workspace.id, { name: String(form.get("name") ?? ""), scopes }, `user:${m.user.id}`, m.role);
    revalidatePath(`/w/${m.workspace.id}/api-keys`);
    return { ok: true, secret: k.key, info: { name: k.name, scopes: k.scopes.join(", ") }, at: Date.now() };
  } catch (err) {
    return failed(err);
  }
}

export async function revokeApiKeyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form, "admin");
  if (!m.ok) return { error: m.error, at: Date.now() };
  const ok = await revokeApiKey(getDb(), m.workspace.id, idOf(form, "id"), `user:${m.user.id}`);
  if (!ok) notFound();
  revalidatePath(`/w/${m.workspace.id}/api-keys`);
  return { ok: true, at: Date.now() };
}
