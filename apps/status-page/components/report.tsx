import type { PublicReport } from "@vigil/core";
import type { Translator } from "@vigil/core/i18n";
import { stateClass } from "../lib/format";
import { Markdown } from "./markdown";
import { card } from "./shell";

const worstImpact = (r: PublicReport) =>
  r.components.reduce<"degraded" | "partial_outage" | "major_outage">(
    (w, c) =>
      ["degraded", "partial_outage", "major_outage"].indexOf(c.impact) > ["degraded", "partial_outage", "major_outage"].indexOf(w)
        ? c.impact
        : w,
    "degraded",
  );

/** A report with its whole timeline, newest update first. */
export function ReportCard({ r, base, tr, link = true }: { r: PublicReport; base: string; tr: Translator; link?: boolean }) {
  const tone = r.resolvedAt === null ? stateClass(worstImpact(r)) : "st-operational";
  return (
    <article className={`${card} ${tone} overflow-hidden`}>
      <div className="h-1" style={{ background: "var(--c)" }} />
      <div className="p-5">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 className="text-lg font-semibold t-heading">
            {link ? (
              <a href={`${base}/reports/${r.id}`} className="hover:underline">
                {r.title}
              </a>
            ) : (
              r.title
            )}
          </h3>
          <span className="fg text-sm font-medium">{tr.t(`report.${r.status}`)}</span>
        </div>
        {r.components.length > 0 ? (
          <p className="mt-1 text-sm t-muted">
            {tr.t("page.affected", {
              components: tr.list(
                r.components.map((c) => tr.t("page.affectedComponent", { name: c.name, impact: tr.t(`impact.${c.impact}`) })),
              ),
            })}
          </p>
        ) : null}
        <ol className="mt-4 space-y-4 border-l b-line pl-4">
          {r.updates.map((u) => (
            <li key={u.id} className="relative">
              <span className="absolute -left-[21px] top-1.5 h-2.5 w-2.5 rounded-full border-2 b-surface bg-dotline" />
              <p className="text-sm">
                <strong className="font-semibold t-heading">{tr.t(`report.${u.status}`)}</strong>
                <span className="t-faint"> · </span>
                <time dateTime={new Date(u.date).toISOString()} className="t-muted">
                  {tr.dateTime(u.date)}
                </time>
              </p>
              <Markdown source={u.message} className="mt-1 t-text" />
            </li>
          ))}
        </ol>
      </div>
    </article>
  );
}
