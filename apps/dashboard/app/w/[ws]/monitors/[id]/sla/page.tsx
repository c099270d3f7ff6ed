import { notFound } from "next/navigation";
import { slaFor, slaSubject } from "../../../../../../features/sla/sla";
import { SlaView } from "../../../../../../features/sla/sla-report";
import { memberOf } from "../../../../../../lib/session";

export const metadata = { title: "SLA report" };

/** Audience: any member of the workspace, viewers included; another workspace's monitor is a 404 (the layout's). */
export default async function MonitorSla({
  params,
  searchParams,
}: {
  params: Promise<{ ws: string; id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { ws, id } = await params;
  const m = await memberOf(ws);
  const mon = await slaSubject("monitors", m.workspace.id, id);
  if (!mon) notFound();
  const { req, report, now } = await slaFor("monitor", m.workspace.id, mon.id, await searchParams);
  const base = `/w/${m.workspace.id}/monitors/${mon.id}`;
  return (
    <SlaView subject="monitor" name={mon.name} req={req} report={report} base={`${base}/sla`} printBase={`/print${base}/sla`} now={now} />
  );
}
