import type { PublicComponent } from "@vigil/core";
import { barsHtml } from "../lib/bars-html";
import { formatUptime, STATE_TEXT, stateClass } from "../lib/format";

/** One component: name, current state, and a bar per day; each bar is focusable and shows its day. */
export function ComponentRow({ c }: { c: PublicComponent }) {
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
          <span className="fg">{STATE_TEXT[c.state]}</span>
        </span>
      </div>
      {c.monitored || c.days.some((d) => d.level !== "none") ? (
        <>
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: built by barsHtml, every text escaped there */}
          <div dangerouslySetInnerHTML={{ __html: barsHtml(c) }} />
          <div className="mt-2 flex justify-between text-xs t-faint">
            <span>
              <span className="sm:hidden">30 days ago</span>
              <span className="hidden sm:inline">{n} days ago</span>
            </span>
            <span>{c.uptime === null ? (c.state === "monitoring_off" ? "No checks yet" : "") : `${formatUptime(c.uptime)} uptime`}</span>
            <span>Today</span>
          </div>
        </>
      ) : null}
    </div>
  );
}
