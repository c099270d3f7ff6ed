// The SLA view of a monitor or a status page: the period and target form, the figures, incidents and
// maintenance left out. A server component; the form is a plain GET form (works without JavaScript).
import type { SlaReport } from "@vigil/core";
import { ChevronLeft, ChevronRight, CloudOff, FileJson, FileSpreadsheet, Printer, ShieldCheck } from "lucide-react";
import Form from "next/form";
import Link from "next/link";
import { dateTime } from "../../lib/format";
import { Badge, Button, buttonClass, Card, CardHeader, cx, Empty, Field, Input, Notice, Table, td } from "../../ui/ui";
import { type SlaField, type SlaRequest, shiftMonth, slaQuery, thisMonth } from "./sla";
import { countedLine, incidentRows, measuredTime, monthName, periodLabel, slaFigures, targetText, uptimeText } from "./sla-figures";

const TONE = { green: "text-emerald-700", amber: "text-amber-700", red: "text-red-700" } as const;
const LABEL: Record<SlaField, string> = { month: "Month", from: "From", to: "To", target: "Target" };

function SlaForm({ req, base, now }: { req: SlaRequest; base: string; now: number }) {
  const input = (name: SlaField, props: { type: string; placeholder?: string; inputMode?: "decimal" }) => (
    <Field
      label={LABEL[name]}
      name={name}
      error={req.errors[name]}
      hint={name === "target" ? "In percent, above 0 and below 100." : undefined}
    >
      <Input
        id={name}
        name={name}
        defaultValue={req.values[name]}
        invalid={!!req.errors[name]}
        aria-describedby={req.errors[name] ? `${name}-error` : undefined}
        {...props}
      />
    </Field>
  );
  const radio = (value: SlaRequest["period"], label: string) => (
    <label className="inline-flex items-center gap-2 text-sm">
      <input type="radio" name="period" value={value} defaultChecked={req.period === value} className="size-4 accent-zinc-900" />
      {label}
    </label>
  );
  const month = /^\d{4}-\d{2}$/.test(req.values.month) ? req.values.month : thisMonth(now);
  const prev = shiftMonth(month, -1);
  const next = shiftMonth(month, 1);
  return (
    // Keyed by what it shows: a link to another month remounts it, or its inputs would keep the old values.
    <Form
      key={`${req.period}:${Object.values(req.values).join(":")}`}
      action={base}
      className="grid gap-4 px-5 py-4"
      aria-label="Report period and target"
    >
      <fieldset className="flex flex-wrap gap-x-6 gap-y-2">
        <legend className="mb-2 text-sm font-medium text-zinc-800">Period</legend>
        {radio("month", "Calendar month")}
        {radio("range", "Custom range")}
      </fieldset>
      <div className="grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {input("month", { type: "month", placeholder: "YYYY-MM" })}
        {input("from", { type: "date" })}
        {input("to", { type: "date" })}
        {input("target", { type: "text", inputMode: "decimal", placeholder: "99.9" })}
      </div>
      <p className="-mt-2 text-xs text-zinc-500">
        Months and dates are UTC. A custom range ends at the start of its “To” day (not included); without one it runs to now.
      </p>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Button>Show report</Button>
        {req.period === "month" ? (
          <nav aria-label="Months" className="flex gap-2">
            <Link href={`${base}?${slaQuery(req, prev)}`} className={buttonClass("ghost", "h-8")} rel="prev">
              <ChevronLeft className="size-4" aria-hidden />
              {monthName(prev)}
            </Link>
            {next <= thisMonth(now) ? (
              <Link href={`${base}?${slaQuery(req, next)}`} className={buttonClass("ghost", "h-8")} rel="next">
                {monthName(next)}
                <ChevronRight className="size-4" aria-hidden />
              </Link>
            ) : null}
          </nav>
        ) : null}
      </div>
    </Form>
  );
}

export function FigureCards({ report }: { report: SlaReport }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {slaFigures(report).map((f) => (
        <Card key={f.key} className="px-4 py-3">
          <div data-testid={`sla-${f.key}`}>
            <p className="text-xs text-zinc-500">{f.label}</p>
            <p className={cx("mt-1 text-lg font-semibold tabular-nums", f.tone ? TONE[f.tone] : "text-zinc-900")}>{f.value}</p>
            <p className="text-xs text-zinc-500">{f.detail}</p>
          </div>
        </Card>
      ))}
    </div>
  );
}

export function MonitorsTable({ report }: { report: SlaReport }) {
  return (
    <Table head={["Monitor", "Measured", "No data", "Checks", "Failed", "Uptime", "Budget left"]}>
      {report.monitors.map((m) => (
        <tr key={m.monitorId} data-testid="sla-monitor">
          <td className={cx(td, "font-medium")}>{m.monitorName}</td>
          <td className={cx(td, "tabular-nums")}>{m.measuredMs ? measuredTime(m.measuredMs) : "not checked yet"}</td>
          <td className={cx(td, "tabular-nums")}>{m.noDataMs ? measuredTime(m.noDataMs) : "—"}</td>
          <td className={cx(td, "tabular-nums")}>{m.checks}</td>
          <td className={cx(td, "tabular-nums")}>{m.failed}</td>
          <td className={cx(td, "tabular-nums")}>{m.checks ? uptimeText(m.uptime) : "no data"}</td>
          <td className={cx(td, "tabular-nums")}>
            {m.checks === 0 ? "—" : m.errorBudget.remaining <= 0 ? "exhausted" : `${(m.errorBudget.remaining * 100).toFixed(1)} %`}
          </td>
        </tr>
      ))}
    </Table>
  );
}

export function IncidentsTable({ report, now }: { report: SlaReport; now: number }) {
  return (
    <Table head={["Incident", "Started", "Ended", "Lasted"]}>
      {incidentRows(report, now).map((i) => (
        <tr key={i.key} data-testid="sla-incident">
          <td className={td}>
            <span className="font-medium">{i.title}</span>
            <span className="block text-xs text-zinc-500">{i.kind}</span>
          </td>
          <td className={cx(td, "whitespace-nowrap")}>{i.started}</td>
          <td className={cx(td, "whitespace-nowrap")}>{i.ended === "ongoing" ? <Badge tone="red">ongoing</Badge> : i.ended}</td>
          <td className={cx(td, "tabular-nums")}>{i.lasted}</td>
        </tr>
      ))}
    </Table>
  );
}

export function MaintenanceTable({ report }: { report: SlaReport }) {
  return (
    <Table head={["Maintenance window", "From", "To"]}>
      {report.maintenance.map((w) => (
        <tr key={w.id}>
          <td className={cx(td, "font-medium")}>{w.title}</td>
          <td className={cx(td, "whitespace-nowrap")}>{dateTime(w.startsAt)}</td>
          <td className={cx(td, "whitespace-nowrap")}>{dateTime(w.endsAt)}</td>
        </tr>
      ))}
    </Table>
  );
}

/**
 * `base`: this view's path (downloads are under `${base}/export`); `printBase`: the printable page's path.
 * `report` is null while a field is wrong: the form says which, and nothing else is shown.
 */
export function SlaView({
  subject,
  name,
  req,
  report,
  base,
  printBase,
  now,
}: {
  subject: "monitor" | "page";
  name: string;
  req: SlaRequest;
  report: SlaReport | null;
  base: string;
  printBase: string;
  now: number;
}) {
  const query = report ? slaQuery(req) : "";
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader
          title="Period and target"
          description="Uptime and error budget over a calendar month or a custom range; maintenance windows are left out."
        />
        <SlaForm req={req} base={base} now={now} />
      </Card>

      {report === null ? (
        <Notice tone="red">
          <span data-testid="sla-invalid">No report: fix the field named above, then press “Show report”.</span>
        </Notice>
      ) : (
        <section aria-labelledby="sla-period" className="grid gap-4">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <div>
              <h2 id="sla-period" className="text-lg font-semibold">
                {periodLabel(req, report)}
              </h2>
              <p className="text-sm text-zinc-500">
                {name} · target {targetText(report.target)} · {report.checks ? countedLine(report) : "no checks"}
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              <a href={`${base}/export?${query}&format=csv`} className={buttonClass("secondary")} download>
                <FileSpreadsheet className="size-4" aria-hidden />
                Download CSV
              </a>
              <a href={`${base}/export?${query}&format=json`} className={buttonClass("secondary")} download>
                <FileJson className="size-4" aria-hidden />
                Download JSON
              </a>
              <a href={`${printBase}?${query}`} className={buttonClass("secondary")}>
                <Printer className="size-4" aria-hidden />
                Printable page
              </a>
            </div>
          </div>
          {report.checks === 0 ? (
            <Card>
              <Empty icon={<CloudOff className="size-5" aria-hidden />} title="No checks in this period">
                {report.inMaintenance
                  ? `All ${report.inMaintenance} checks of this period fell inside maintenance windows, which the report leaves out.`
                  : subject === "monitor"
                    ? "No probe stored a result for this monitor in the period: there is no uptime to report."
                    : "None of this page's monitor-backed components has a result in the period: there is no uptime to report."}
              </Empty>
            </Card>
          ) : (
            <FigureCards report={report} />
          )}
          {subject === "page" && report.monitors.length > 0 ? (
            <Card>
              <CardHeader title="Monitors" description="The page's monitor-backed components; the figures above count them together." />
              <MonitorsTable report={report} />
            </Card>
          ) : null}
          <Card>
            <CardHeader
              title="Incidents"
              description={
                subject === "monitor" ? "The monitor's incidents in the period." : "Its monitors' incidents and the page's status reports."
              }
            />
            {report.incidents.length === 0 ? (
              <p className="flex items-center gap-2 px-5 py-4 text-sm text-zinc-600">
                <ShieldCheck className="size-4 text-emerald-600" aria-hidden />
                No incidents in this period.
              </p>
            ) : (
              <IncidentsTable report={report} now={now} />
            )}
          </Card>
          {report.maintenance.length > 0 ? (
            <Card>
              <CardHeader title="Maintenance left out" description="Checks in these windows count neither for nor against the target." />
              <MaintenanceTable report={report} />
            </Card>
          ) : null}
        </section>
      )}
    </div>
  );
}

/** What loading.tsx shows while the report is computed. */
export function SlaSkeleton() {
  return (
    <div aria-busy="true" aria-live="polite" className="grid gap-6">
      <p className="sr-only">Loading the SLA report…</p>
      <div className="h-56 animate-pulse rounded-xl border border-zinc-200 bg-zinc-100/70" />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="h-24 animate-pulse rounded-xl border border-zinc-200 bg-zinc-100/70" />
        ))}
      </div>
      <div className="h-40 animate-pulse rounded-xl border border-zinc-200 bg-zinc-100/70" />
    </div>
  );
}
