import { limitsOf, listComponents, listMaintenances, listMonitors } from "@vigil/core";
import { Wrench } from "lucide-react";
import { deleteMaintenanceAction } from "../../../../../../features/status-pages/actions";
import { MaintenanceForm } from "../../../../../../features/status-pages/maintenance-form";
import { editorPage } from "../../../../../../features/status-pages/status-page";
import { getDb } from "../../../../../../lib/db";
import { dateTime } from "../../../../../../lib/format";
import { ConfirmAction } from "../../../../../../ui/confirm";
import { Badge, Card, CardHeader, Code, Empty, Notice, Table, td } from "../../../../../../ui/ui";

export const metadata = { title: "Maintenance" };

export default async function Maintenance({ params }: { params: Promise<{ ws: string; id: string }> }) {
  const { ws, id } = await params;
  const { m, page } = await editorPage(ws, id);
  const wsId = m.workspace.id;
  const [windows, { components }, monitors] = await Promise.all([
    listMaintenances(getDb(), wsId, { pageId: page.id }),
    listComponents(getDb(), wsId, page.id),
    listMonitors(getDb(), wsId),
  ]);
  const names = new Map(components.map((c) => [c.id, c.name]));
  const monitorNames = new Map(monitors.map((x) => [x.id, x.name || `Monitor ${x.id}`]));
  const now = Date.now();
  const allowed = !!limitsOf(m.workspace).limits.maintenance;
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader
          title="Maintenance windows"
          description="While one is in progress the page shows it, and alerts of its monitors are held back."
        />
        {windows.length === 0 ? (
          <Empty icon={<Wrench className="size-5" aria-hidden />} title="No maintenance scheduled">
            Schedule planned work below so visitors know ahead of time.
          </Empty>
        ) : (
          <Table head={["Window", "When", "Affects", ""]}>
            {windows.map((w) => {
              const state = w.endsAt <= now ? "done" : w.startsAt <= now ? "in progress" : "scheduled";
              return (
                <tr key={w.id} data-testid={`maintenance-${w.id}`}>
                  <td className={td}>
                    <span className="font-medium">{w.title}</span>{" "}
                    <Badge tone={state === "in progress" ? "amber" : state === "scheduled" ? "indigo" : "zinc"}>{state}</Badge>
                  </td>
                  <td className={`${td} whitespace-nowrap text-zinc-600`}>
                    {dateTime(w.startsAt)} → {dateTime(w.endsAt)}
                  </td>
                  <td className={`${td} text-zinc-600`}>
                    {[
                      ...w.components.map((c) => names.get(c) ?? `#${c}`),
                      ...w.monitors.map((x) => `${monitorNames.get(x) ?? `#${x}`} (alerts)`),
                    ].join(", ") || "—"}
                  </td>
                  <td className={`${td} text-right`}>
                    <ConfirmAction
                      action={deleteMaintenanceAction}
                      fields={{ workspaceId: String(wsId), maintenanceId: String(w.id) }}
                      label={state === "done" ? "Delete" : "Cancel"}
                      title={`Remove “${w.title}”?`}
                      description="It disappears from the page and its monitors alert normally again."
                      confirm="Remove window"
                    />
                  </td>
                </tr>
              );
            })}
          </Table>
        )}
      </Card>
      <Card>
        <CardHeader title="Schedule maintenance" />
        <div className="px-5 py-4">
          {allowed ? null : (
            <div className="mb-4">
              <Notice>
                Maintenance windows are not in this workspace's plan (limit <Code>maintenance</Code> is off).
              </Notice>
            </div>
          )}
          <MaintenanceForm
            workspaceId={wsId}
            pageId={page.id}
            components={components.map((c) => ({ id: c.id, name: c.name }))}
            monitors={monitors.map((x) => ({ id: x.id, name: x.name || `Monitor ${x.id}` }))}
          />
        </div>
      </Card>
    </div>
  );
}
