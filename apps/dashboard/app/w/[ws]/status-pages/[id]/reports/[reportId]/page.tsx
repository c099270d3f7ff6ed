import { getStatusReport, listComponents } from "@vigil/core";
import { notFound } from "next/navigation";
import { deleteReportAction } from "../../../../../../../features/status-pages/actions";
import { renderMarkdown } from "../../../../../../../features/status-pages/markdown";
import { AddUpdateForm, EditReportForm } from "../../../../../../../features/status-pages/report-forms";
import { ReportState } from "../../../../../../../features/status-pages/report-state";
import { paramId } from "../../../../../../../features/status-pages/status-model";
import { editorPage, or404 } from "../../../../../../../features/status-pages/status-page";
import { getDb } from "../../../../../../../lib/db";
import { dateTime } from "../../../../../../../lib/format";
import { ConfirmAction } from "../../../../../../../ui/confirm";
import { Card, CardSection } from "../../../../../../../ui/ui";

export const metadata = { title: "Status report" };

const IMPACT_TEXT: Record<string, string> = {
  degraded: "Degraded performance",
  partial_outage: "Partial outage",
  major_outage: "Major outage",
};

export default async function Report({ params }: { params: Promise<{ ws: string; id: string; reportId: string }> }) {
  const { ws, id, reportId } = await params;
  const { m, page } = await editorPage(ws, id);
  const wsId = m.workspace.id;
  const [report, { components }] = await Promise.all([
    or404(getStatusReport(getDb(), wsId, paramId(reportId))),
    listComponents(getDb(), wsId, page.id),
  ]);
  if (report.pageId !== page.id) notFound();
  const names = new Map(components.map((c) => [c.id, c.name]));
  const impacts = Object.fromEntries(report.components.map((c) => [c.componentId, c.impact]));
  return (
    <div className="grid gap-6">
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-3 border-b border-zinc-100 px-5 py-4">
          <div>
            <h2 className="flex items-center gap-2 text-lg font-semibold">
              {report.title} <ReportState status={report.status} />
            </h2>
            <p className="mt-0.5 text-sm text-zinc-500">
              Started {dateTime(report.createdAt)}
              {report.resolvedAt ? ` · resolved ${dateTime(report.resolvedAt)}` : ""}
              {report.components.length > 0
                ? ` · ${report.components.map((c) => `${names.get(c.componentId) ?? "?"} (${IMPACT_TEXT[c.impact]})`).join(", ")}`
                : ""}
            </p>
          </div>
          <ConfirmAction
            action={deleteReportAction}
            fields={{ workspaceId: String(wsId), reportId: String(report.id), pageId: String(page.id) }}
            label="Delete report"
            title={`Delete “${report.title}”?`}
            description="It disappears from the page, its history and its feeds. This cannot be undone."
            confirm="Delete report"
          />
        </div>
        <ol className="grid gap-0 px-5 py-4" aria-label="Updates, newest first" data-testid="timeline">
          {report.updates.map((u) => (
            <li key={u.id} className="relative border-l-2 border-zinc-200 pb-5 pl-5 last:pb-0">
              <span className="absolute top-1 -left-[7px] size-3 rounded-full border-2 border-white bg-zinc-400" aria-hidden />
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <ReportState status={u.status} />
                <time className="text-zinc-500" dateTime={new Date(u.date).toISOString()}>
                  {dateTime(u.date)}
                </time>
              </div>
              <div
                className="markdown mt-1.5 text-sm text-zinc-800"
                // biome-ignore lint/security/noDangerouslySetInnerHtml: micromark output, raw HTML escaped and unsafe link protocols dropped
                dangerouslySetInnerHTML={{ __html: renderMarkdown(u.message) }}
              />
            </li>
          ))}
        </ol>
      </Card>
      <CardSection title="Post an update" description="Each update is a new entry of the public timeline; the report takes its state.">
        <AddUpdateForm workspaceId={wsId} reportId={report.id} current={report.status} />
      </CardSection>
      <CardSection title="Edit report" description="The title and which components are affected, and how badly.">
        <EditReportForm
          workspaceId={wsId}
          reportId={report.id}
          title={report.title}
          components={components.map((c) => ({ id: c.id, name: c.name }))}
          impacts={impacts}
        />
      </CardSection>
    </div>
  );
}
