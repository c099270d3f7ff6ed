import { Download } from "lucide-react";
import { MonitorImport } from "../../../../../features/monitors/monitor-import";
import { memberOf } from "../../../../../lib/session";
import { buttonClass, PageHeader } from "../../../../../ui/ui";

export const metadata = { title: "Monitors as code" };

export default async function ImportMonitors({ params }: { params: Promise<{ ws: string }> }) {
  const m = await memberOf((await params).ws);
  return (
    <>
      <PageHeader
        title="Monitors as code"
        description="Export the workspace as a monitors file, edit it, and upload it back: you see the plan (+ create, ~ update, - delete) before anything changes. A file with one bad entry changes nothing."
        action={
          <a href={`/w/${m.workspace.id}/monitors/export`} className={buttonClass("secondary")} download>
            <Download className="size-4" aria-hidden /> Export YAML
          </a>
        }
      />
      <MonitorImport workspaceId={m.workspace.id} />
    </>
  );
}
