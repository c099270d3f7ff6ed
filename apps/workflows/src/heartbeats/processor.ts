import { evaluateHeartbeats } from "@vigil/core";
import type { Job } from "bullmq";
import type { WorkflowContext } from "../context";
import { dispatch } from "../evaluate/processor";

/**
 * One pass over heartbeat deadlines and new pings (a BullMQ job scheduler runs it every second). The
 * deadlines live in the database: a restart, a crash mid-pass or a Redis flush delays this pass, never
 * loses a deadline; a pass redone writes no second event, and an event whose dispatch a crash cut off
 * is picked up by the sweep.
 */
export function heartbeatProcessor(ctx: WorkflowContext) {
  return async (job: Job) => {
    const events = await evaluateHeartbeats(ctx.db);
    await dispatch(ctx, events, { logged: events, jobId: job.id, message: "heartbeat status changed" });
    return { events: events.length };
  };
}
