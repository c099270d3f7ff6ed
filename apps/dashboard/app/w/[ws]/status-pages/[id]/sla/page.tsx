import { slaFor } from "../../../../../../features/sla/sla";
import { SlaView } from "../../../../../../features/sla/sla-report";
import { editorPage } from "../../../../../../features/status-pages/status-page";

export const metadata = { title: "SLA report" };

/** Audience: any member of the workspace, viewers included; another workspace's page is a 404 (the layout's). */
export default async function StatusPageSla({
  params,
  searchParams,
}: {
  params: Promise<{ ws: string; id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { ws, id } = await params;
  const { m, page, base } = await editorPage(ws, id);
  const { req, report, now } = await slaFor("page", m.workspace.id, page.id, await searchParams);
  return (
    <SlaView subject="page" name={page.title} req={req} report={report} base={`${base}/sla`} printBase={`/print${base}/sla`} now={now} />
  );
}
