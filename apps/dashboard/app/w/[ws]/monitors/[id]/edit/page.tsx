import { getMonitor, NotFoundError } from "@vigil/core";
import { Download } from "lucide-react";
import { notFound } from "next/navigation";
import { draftOf } from "../../../../../../features/monitors/form/draft";
import { monitorFormData } from "../../../../../../features/monitors/form/form-data";
import { MonitorForm } from "../../../../../../features/monitors/form/monitor-form";
import { getDb } from "../../../../../../lib/db";
import { memberOf } from "../../../../../../lib/session";
import { buttonClass, PageHeader } from "../../../../../../ui/ui";

export const metadata = { title: "Edit monitor" };

export default async function EditMonitor({ params }: { params: Promise<{ ws: string; id: string }> }) {
  const { ws, id } = await params;
  const m = await memberOf(ws);
  if (!/^\d{1,15}$/.test(id)) notFound();
  const monitor = await getMonitor(getDb(), m.workspace.id, Number(id)).catch((err) => {
    if (err instanceof NotFoundError) notFound();
    throw err;
  });
  const data = await monitorFormData(m.workspace, monitor.regions);
  return (
    <>
      <PageHeader
        title={`Edit ${monitor.name || monitor.key || `monitor #${monitor.id}`}`}
        description="Secret header values are kept unless you type a new one; they are never shown."
        action={
          <a href={`/w/${m.workspace.id}/monitors/export?id=${monitor.id}`} className={buttonClass("secondary")} download>
            <Download className="size-4" aria-hidden /> Export YAML
          </a>
        }
      />
      <MonitorForm workspaceId={m.workspace.id} monitorId={monitor.id} initial={draftOf(monitor)} {...data} />
    </>
  );
}
