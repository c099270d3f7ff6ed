import { evaluateHeartbeats, nextHeartbeatDeadline } from "@vigil/core";
import type { Job } from "bullmq";
import type { WorkflowContext } from "../context";
import { dispatch } from "../evaluate/processor";

/**
 * The ping server writes its liveness every second: a pass this long after a deadline finds it proven (the
 * pass runs on the whole second after, so 1.1–2.1 s after the deadline, as with the old one-second tick).
 */
export const PROOF_WAIT_MS = 1_100;
/** A passed deadline still undecided after this long: the ping servers' liveness is missing. */
const STALLED_PROOF_MS = 15_000;

export interface HeartbeatPassTiming {
  /** Asks for another pass at a moment (one job per moment, whoever asks). */
  ask(atMs: number): Promise<void>;
  /** How soon to look again while a passed deadline waits for its proof, or after a failed pass. */
  retryMs: number;
}

/**
 * One pass over heartbeat deadlines and new pings. Passes run when asked: by the server once it stored
 * pings, by the pass before at the next deadline, and by a slow safety tick (edits, asks lost while Redis
 * was away). The deadlines live in the database: a restart, a crash mid-pass or a Redis flush delays a
 * pass, never loses a deadline; a pass redone writes no second event, and an event whose dispatch a crash
 * cut off is picked up by the sweep.
 */
export function heartbeatProcessor(ctx: WorkflowContext, timing: HeartbeatPassTiming) {
  let warnedFor: number | null = null;
  return async (job: Job) => {
    let events: Awaited<ReturnType<typeof evaluateHeartbeats>>;
    let next: number | null;
    try {
      events = await evaluateHeartbeats(ctx.db);
      next = await nextHeartbeatDeadline(ctx.db);
    } catch (err) {
      await timing.ask(Date.now() + timing.retryMs);
      throw err;
    }
    if (next !== null) {
      const now = Date.now();
      // Passed and still armed: waiting for the ping server's proof, or more than one pass decides.
      await timing.ask(next <= now ? now + timing.retryMs : next + PROOF_WAIT_MS);
      // Proof this late means no ping server vouches for itself: say so once per deadline, alerts wait meanwhile.
      if (now - next > STALLED_PROOF_MS && next !== warnedFor) {
        warnedFor = next;
        ctx.logger.warn(
          { deadlineAt: next, waitedMs: now - next },
          "a heartbeat deadline waits for a ping server to prove it was up; is the server writing its liveness?",
        );
      }
    }
    await dispatch(ctx, events, { logged: events, jobId: job.id, message: "heartbeat status changed" });
    return { events: events.length, next };
  };
}
