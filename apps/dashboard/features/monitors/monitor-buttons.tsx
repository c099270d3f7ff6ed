"use client";
import { Pause, Play, Zap } from "lucide-react";
import { useActionState } from "react";
import type { ActionState } from "../../lib/action-state";
import { ConfirmAction } from "../../ui/confirm";
import { Badge, buttonClass } from "../../ui/ui";
import { deleteMonitorAction, setMonitorActiveAction, triggerMonitorAction } from "./detail-actions";

const statusTone = { success: "green", degraded: "amber", error: "red" } as const;

/** Pause / resume, check now (with what the probe saw) and delete, for one monitor. */
export function MonitorActions({
  workspaceId,
  monitorId,
  active,
  name,
  checkable = true,
}: {
  workspaceId: number;
  monitorId: number;
  active: boolean;
  name: string;
  /** False for a heartbeat: nothing runs it, its job pings. */
  checkable?: boolean;
}) {
  const [pauseState, pause, pausing] = useActionState(setMonitorActiveAction, {} as ActionState);
  const [run, trigger, running] = useActionState(triggerMonitorAction, {} as ActionState);
  const ids = { workspaceId: String(workspaceId), monitorId: String(monitorId) };
  const hidden = Object.entries(ids).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />);
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <form action={pause}>
          {hidden}
          <input type="hidden" name="active" value={active ? "false" : "true"} />
          <button type="submit" className={buttonClass("secondary")} disabled={pausing}>
            {active ? <Pause className="size-4" aria-hidden /> : <Play className="size-4" aria-hidden />}
            {active ? "Pause" : "Resume"}
          </button>
        </form>
        {checkable ? (
          <form action={trigger}>
            {hidden}
            <button type="submit" className={buttonClass("secondary")} disabled={running || !active}>
              <Zap className="size-4" aria-hidden />
              {running ? "Checking…" : "Check now"}
            </button>
          </form>
        ) : null}
        <ConfirmAction
          action={deleteMonitorAction}
          fields={ids}
          label="Delete"
          small={false}
          title={`Delete ${name}?`}
          description="Probes stop checking it and no more alerts go out for it. The deletion is recorded in the audit log; it cannot be undone."
          confirm="Delete monitor"
        />
      </div>
      <div aria-live="polite" className="text-sm">
        {pauseState.error ? (
          <p role="alert" className="text-red-600">
            {pauseState.error}
          </p>
        ) : null}
        {run.error ? (
          <p role="alert" className="text-red-600">
            Check now: {run.error}
          </p>
        ) : null}
        {run.ok && run.info ? (
          <p data-testid="check-now-result" className="flex flex-wrap items-center gap-2 text-zinc-700">
            <Badge tone={statusTone[run.info.status as keyof typeof statusTone] ?? "zinc"}>{run.info.status}</Badge>
            <span>
              {run.info.location} · {run.info.latency}
              {run.info.code ? ` · HTTP ${run.info.code}` : ""}
            </span>
            {run.info.error ? <span className="text-red-600">{run.info.error}</span> : null}
          </p>
        ) : null}
      </div>
    </div>
  );
}
