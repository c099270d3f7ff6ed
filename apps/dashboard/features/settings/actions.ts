"use server";
import { renameWorkspace } from "@vigil/core";
import { revalidatePath } from "next/cache";
import { failed } from "../../lib/action-failure";
import type { ActionState } from "../../lib/action-state";
import { getDb } from "../../lib/db";
import { actionMember } from "../../lib/session";

export async function renameWorkspaceAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form, "admin");
  if (!m.ok) return { error: m.error, at: Date.now() };
  try {
    await renameWorkspace(getDb(), m.workspace.id, { name: String(form.get("name") ?? "") }, `user:${m.user.id}`);
  } catch (err) {
    return failed(err);
  }
  revalidatePath(`/w/${m.workspace.id}`, "layout");
  return { ok: true, at: Date.now() };
}
