// The printable SLA report: no navigation, a print stylesheet (app/print/print.css), everything on paper that
// the screen view shows. Links and the print button are for the screen only.
import type { SlaReport } from "@vigil/core";
import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { dateTime } from "../../lib/format";
import { buttonClass, cx } from "../../ui/ui";
import { PrintButton } from "./print-button";
import type { SlaField, SlaRequest } from "./sla";
import { countedLine, periodLabel, slaFigures, targetText } from "./sla-figures";
import { IncidentsTable, MaintenanceTable, MonitorsTable } from "./sla-report";

const TONE = { green: "text-emerald-800", amber: "text-amber-800", red: "text-red-700" } as const;

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="sla-keep mt-8">
      <h2 className="mb-2 border-b border-zinc-300 pb-1 text-base font-semibold">{title}</h2>
      {children}
    </section>
  );
}

export function SlaPrint({
  workspace,
  subject,
  name,
  req,
  report,
  back,
  now,
}: {
  workspace: string;
  subject: "monitor" | "page";
  name: string;
  req: SlaRequest;
  report: SlaReport | null;
  /** The screen view of the same report. */
  back: string;
  now: number;
}) {
  return (
    <main className="sla-print mx-auto max-w-3xl bg-white px-8 py-8 text-zinc-900 print:max-w-none print:p-0">
      <div className="mb-8 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-zinc-200 bg-zinc-50 px-4 py-3 print:hidden">
        <Link href={back} className={buttonClass("ghost")}>
          <ArrowLeft className="size-4" aria-hidden />
          Back to the report
        </Link>
        <PrintButton />
      </div>
      <header>
        <p className="text-sm text-zinc-500">Vigil · {workspace}</p>
        <h1 className="mt-1 text-2xl font-semibold">SLA report: {name}</h1>
        <dl className="mt-4 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm">
          <dt className="text-zinc-500">{subject === "monitor" ? "Monitor" : "Status page"}</dt>
          <dd>{name}</dd>
          {report ? (
            <>
              <dt className="text-zinc-500">Period</dt>
              <dd data-testid="print-period">
                {periodLabel(req, report)} ({dateTime(report.from)} – {dateTime(report.to)}, end not included)
              </dd>
              <dt className="text-zinc-500">Target</dt>
              <dd>{targetText(report.target)}</dd>
            </>
          ) : null}
          <dt className="text-zinc-500">Generated</dt>
          <dd>{dateTime(now)}</dd>
        </dl>
      </header>
      {report === null ? (
        <div role="alert" className="mt-8 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          <p className="font-medium">No report: the period or the target is not valid.</p>
          <ul className="mt-1 list-disc pl-5">
            {(Object.entries(req.errors) as [SlaField, string][]).map(([field, rule]) => (
              <li key={field}>
                {field} {rule}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <>
          <Section title="Figures">
            {report.checks === 0 ? (
              <p className="text-sm">No checks in this period: there is no uptime to report.</p>
            ) : (
              <table className="w-full text-left text-sm">
                <tbody className="divide-y divide-zinc-200">
                  {slaFigures(report).map((f) => (
                    <tr key={f.key} data-testid={`print-${f.key}`}>
                      <th scope="row" className="py-2 pr-4 font-medium">
                        {f.label}
                      </th>
                      <td className={cx("py-2 pr-4 font-semibold tabular-nums", f.tone ? TONE[f.tone] : "")}>{f.value}</td>
                      <td className="py-2 text-zinc-600">{f.detail}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <p className="mt-2 text-xs text-zinc-500">{report.checks ? countedLine(report) : null}</p>
          </Section>
          {subject === "page" && report.monitors.length > 0 ? (
            <Section title="Monitors">
              <MonitorsTable report={report} />
            </Section>
          ) : null}
          <Section title="Incidents">
            {report.incidents.length === 0 ? (
              <p className="text-sm">No incidents in this period.</p>
            ) : (
              <IncidentsTable report={report} now={now} />
            )}
          </Section>
          {report.maintenance.length > 0 ? (
            <Section title="Maintenance windows left out">
              <MaintenanceTable report={report} />
            </Section>
          ) : null}
          <footer className="mt-10 border-t border-zinc-200 pt-3 text-xs text-zinc-500">
            Uptime is the share of counted checks that did not fail (degraded counts as up). The error budget is the failures the target
            allows over those checks; its time equivalents apply those shares to the counted time. Times are UTC.
          </footer>
        </>
      )}
    </main>
  );
}
