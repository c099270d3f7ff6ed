import type { PublicComponent } from "@vigil/core";
import type { Translator } from "@vigil/core/i18n";
import { barsHtml } from "../lib/bars-html";
import { stateClass } from "../lib/format";

/** One component: name, current state, and a bar per day; each bar is focusable and shows its day. */
export function ComponentRow({ c, tr }: { c: PublicComponent; tr: Translator }) {
  const n = c.days.length;
  return (
    <div className="px-5 py-4">
      <div className="flex items-baseline justify-between gap-4">
        <div className="min-w-0">
          <h3 className="truncate font-medium t-heading">{c.name}</h3>
          {c.description ? <p className="text-sm t-muted">{c.description}</p> : null}
        </div>
        <span className={`${stateClass(c.state)} flex flex-none items-center gap-2 text-sm font-medium`}>
          <span className="dot" aria-hidden />
          <span className="fg">{tr.t(`state.${c.state}`)}</span>
        </span>
      </div>
      {c.monitored || c.days.some((d) => d.level !== "none") ? (
        <>
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: built by barsHtml, every text escaped there */}
          <div dangerouslySetInnerHTML={{ __html: barsHtml(c, tr) }} />
          <div className="mt-2 flex justify-between text-xs t-faint">
            <span>
              <span className="sm:hidden">{tr.t("bars.daysAgo", { days: 30 })}</span>
              <span className="hidden sm:inline">{tr.t("bars.daysAgo", { days: n })}</span>
            </span>
            <span>
              {c.uptime === null
                ? c.state === "monitoring_off"
                  ? tr.t("bars.noChecksYet")
                  : ""
                : tr.t("bars.uptime", { uptime: tr.uptime(c.uptime) })}
            </span>
            <span>{tr.t("bars.today")}</span>
          </div>
        </>
      ) : null}
    </div>
  );
}
