import { notFound } from "next/navigation";
import { slaFor, slaQuery, slaSubject } from "../../../../../../../features/sla/sla";
import { SlaPrint } from "../../../../../../../features/sla/sla-print";
import { memberOf } from "../../../../../../../lib/session";

export const metadata = { title: "SLA report (print)" };

/**
 * The printable SLA report of a monitor (`/print/w/1/monitors/5/sla`) or a status page (`…/status-pages/2/sla`).
 * Audience: any member of the workspace, viewers included; another workspace's monitor or page is a 404.
 */
export default async function PrintSla({
  params,
  searchParams,
}: {
  params: Promise<{ ws: string; kind: string; id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { ws, kind, id } = await params;
  const m = await memberOf(ws);
  const found = await slaSubject(kind, m.workspace.id, id);
  if (!found) notFound();
  const { req, report, now } = await slaFor(found.subject, m.workspace.id, found.id, await searchParams);
  return (
    <SlaPrint
      workspace={m.workspace.name ?? `Workspace ${m.workspace.id}`}
      subject={found.subject}
      name={found.name}
      req={req}
      report={report}
      back={`/w/${m.workspace.id}/${kind}/${found.id}/sla?${slaQuery(req)}`}
      now={now}
    />
  );
}
