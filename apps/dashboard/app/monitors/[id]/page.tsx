import { workspaceOfMonitor } from "@vigil/core";
import { notFound, redirect } from "next/navigation";
import { getDb } from "../../../lib/db";
import { requireUser } from "../../../lib/session";

/**
 * Where an alert's "Open in Vigil" link lands (`/monitors/<id>`): the monitor's page in its workspace,
 * when the signed-in person belongs to it. Any other monitor answers 404, like one that does not exist.
 */
export default async function OpenMonitor({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const u = await requireUser(`/monitors/${encodeURIComponent(id)}`);
  if (!/^\d{1,15}$/.test(id)) notFound();
  const ws = await workspaceOfMonitor(getDb(), Number(id), u.id);
  if (ws === null) notFound();
  redirect(`/w/${ws}/monitors/${id}`);
}
