import { type AskCheck, fireDueTimers } from "@vigil/core";
import type { Job } from "bullmq";
import type { WorkflowContext } from "../context";

export const ALERT_TIMERS_QUEUE = "alert-timers";

/**
 * One tick: every due reminder, escalation step and held child alert. The sends are queued (ids fixed by the
 * timer) before the timer is marked fired, so a crash in between queues them again as no-ops.
 */
export function alertTimersProcessor(ctx: WorkflowContext, tickMs: number, ask?: AskCheck) {
  return async (job: Job) => {
    let total = { sent: 0, closed: 0, held: 0, released: 0 };
    for (let batch = 0; batch < 20; batch++) {
      const out = await fireDueTimers(ctx.db, (sends) => ctx.notifyQueue(sends), { recheckMs: tickMs, ask });
      for (const r of out.releases) ctx.logger.info({ ...r, jobId: job.id }, "held alert released");
      total = {
        sent: total.sent + out.sent,
        closed: total.closed + out.closed,
        held: total.held + out.held,
        released: total.released + out.released,
      };
      if (out.sent + out.closed + out.released + out.held < 500) break;
    }
    if (total.sent + total.released > 0) ctx.logger.info({ ...total, jobId: job.id }, "alert timers fired");
    return total;
  };
}
