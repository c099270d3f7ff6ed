import { getStatusPage, NotFoundError } from "@vigil/core";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getDb } from "../../lib/db";
import { memberOf } from "../../lib/session";
import { paramId } from "./status-model";

/** A core read of what the URL names; not found (or another workspace's) is a 404. */
export async function or404<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof NotFoundError) notFound();
    throw err;
  }
}

/** The signed-in member and the status page in the URL. */
export const editorPage = cache(async (wsParam: string, idParam: string) => {
  const m = await memberOf(wsParam);
  const page = await or404(getStatusPage(getDb(), m.workspace.id, paramId(idParam)));
  return { m, page, ws: m.workspace.id, base: `/w/${m.workspace.id}/status-pages/${page.id}` };
});
