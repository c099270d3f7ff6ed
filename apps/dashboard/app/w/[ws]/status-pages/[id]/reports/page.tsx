import { listComponents, listPromotableIncidents, listStatusReports } from "@vigil/core";
import { Megaphone } from "lucide-react";
import Link from "next/link";
import { CreateReportForm, PromoteButton } from "../../../../../../features/status-pages/report-forms";
import { ReportState } from "../../../../../../features/status-pages/report-state";
import { editorPage } from "../../../../../../features/status-pages/status-page";
import { getDb } from "../../../../../../lib/db";
import { ago, dateTime } from "../../../../../../lib/format";
import { Badge, Card, CardHeader, CardSection, Empty, Table, td } from "../../../../../../ui/ui";

export const metadata = { title: "Status reports" };

export default async function Reports({ params }: { params: Promise<{ ws: string; id: string }> }) {
  const { ws, id } = await params;
  const { m, page, base } = await editorPage(ws, id);
  const wsId = m.workspace.id;
  const [reports, { components }, incidents] = await Promise.all([
    listStatusReports(getDb(), wsId, { pageId: page.id, limit: 200 }),
    listComponents(getDb(), wsId, page.id),
    listPromotableIncidents(getDb(), wsId),
  ]);
  const linked = new Set(components.map((c) => c.monitorId).filter((x) => x !== null));
  // Incidents of monitors shown on this page first.
  const promotable = incidents
    .filter((i) => i.reportId === null)
    .sort((a, b) => Number(linked.has(b.monitorId)) - Number(linked.has(a.monitorId)));
  const now = Date.now();
  const open = reports.filter((r) => r.resolvedAt === null);
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader title="Reports" description={`${open.length} open, ${reports.length - open.length} resolved`} />
        {reports.length === 0 ? (
          <Empty icon={<Megaphone className="size-5" aria-hidden />} title="No reports on this page">
            When something goes wrong, tell your users here: publish a report and post updates as you learn more.
          </Empty>
        ) : (
          <Table head={["Report", "State", "Updates", "Started", "Last update"]}>
            {[...open, ...reports.filter((r) => r.resolvedAt !== null)].map((r) => (
              <tr key={r.id} data-testid={`report-${r.id}`}>
                <td className={td}>
                  <Link href={`${base}/reports/${r.id}`} className="font-medium text-indigo-700 hover:underline">
                    {r.title}
                  </Link>
                  {r.incidentId ? <span className="ml-2 text-xs text-zinc-500">from incident #{r.incidentId}</span> : null}
                </td>
                <td className={td}>
                  <ReportState status={r.status} />
                </td>
                <td className={td}>{r.updates.length}</td>
                <td className={`${td} whitespace-nowrap text-zinc-600`}>{dateTime(r.createdAt)}</td>
                <td className={`${td} text-zinc-600`}>{ago(r.updates[0]?.date ?? r.updatedAt, now)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
      <Card>
        <CardHeader
          title="Monitor incidents"
          description="Incidents the checks opened (open, or from the last 7 days). Promote one to publish it on this page in one click."
        />
        {promotable.length === 0 ? (
          <p className="px-5 py-4 text-sm text-zinc-500">
            No incidents waiting: every recent incident is already a report, or there were none.
          </p>
        ) : (
          <Table head={["Monitor", "Since", "State", ""]}>
            {promotable.map((i) => (
              <tr key={i.id} data-testid={`incident-${i.id}`}>
                <td className={td}>
                  <span className="font-medium">{i.monitorName}</span>
                  {linked.has(i.monitorId) ? null : <span className="ml-2 text-xs text-zinc-500">not a component of this page</span>}
                  {i.cause ? <div className="text-xs text-zinc-500">{i.cause}</div> : null}
                </td>
                <td className={`${td} whitespace-nowrap text-zinc-600`}>{dateTime(i.startedAt)}</td>
                <td className={td}>{i.resolvedAt ? <Badge tone="green">recovered</Badge> : <Badge tone="red">ongoing</Badge>}</td>
                <td className={`${td} text-right`}>
                  <PromoteButton workspaceId={wsId} pageId={page.id} incidentId={i.id} monitor={i.monitorName} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
      <CardSection title="New report" description="Visitors see it at once on the page, in its feeds, and subscribers get a mail.">
        <CreateReportForm workspaceId={wsId} pageId={page.id} components={components.map((c) => ({ id: c.id, name: c.name }))} />
      </CardSection>
    </div>
  );
}
