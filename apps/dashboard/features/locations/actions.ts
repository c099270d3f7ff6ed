"use server";
import { createPrivateLocation, deletePrivateLocation } from "@vigil/core";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { failed, idOf } from "../../lib/action-failure";
import type { ActionState } from "../../lib/action-state";
import { getDb } from "../../lib/db";
import { getEnv } from "../../lib/env";
import { withLift } from "../../lib/limit-help";
import { actionMember } from "../../lib/session";

export async function createLocationAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form, "admin");
  if (!m.ok) return { error: m.error, at: Date.now() };
  try {
    const { location, key } = await createPrivateLocation(
      getDb(),
      m.workspace.id,
      { name: String(form.get("name") ?? ""), region: String(form.get("region") ?? "") as "iad" },
      `user:${m.user.id}`,
    );
    revalidatePath(`/w/${m.workspace.id}/locations`);
    return {
      ok: true,
      secret: key,
      info: { id: String(location.id), name: location.name, region: location.region, ingestUrl: getEnv().PUBLIC_INGEST_URL },
      at: Date.now(),
    };
  } catch (err) {
    return withLift(failed(err), err, m.workspace);
  }
}

export async function deleteLocationAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form, "admin");
  if (!m.ok) return { error: m.error, at: Date.now() };
  try {
    await deletePrivateLocation(getDb(), m.workspace.id, idOf(form, "id"), `user:${m.user.id}`);
  } catch (err) {
    return failed(err);
  }
  revalidatePath(`/w/${m.workspace.id}/locations`);
  redirect(`/w/${m.workspace.id}/locations`);
}
