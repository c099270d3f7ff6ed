// What a heartbeat's page states, as plain text: one word per state everywhere, and only times the pings and schedule give.
import type { HeartbeatDetails } from "@vigil/core";
import { dateTime, duration } from "../../lib/format";

/** The one word for a heartbeat's state, in the page's header, its state card and the monitor list alike. */
export const STATE_WORD: Record<HeartbeatDetails["state"], string> = {
  new: "waiting for first ping",
  up: "up",
  running: "running",
  late: "late",
  down: "down",
  paused: "paused",
};

const when = (ms: number, now: number) => (ms >= now ? `in ${duration(ms - now)}` : `${duration(now - ms)} ago`);

export interface Fact {
  value: string;
  detail: string;
}

/** "Next ping expected" and "Down after", from the heartbeat's deadline and its schedule's words (e.g. "every 5 min · grace 1 min"). */
export function heartbeatFacts(
  hb: Pick<HeartbeatDetails, "state" | "nextExpectedAt" | "deadlineAt" | "rearmedAt">,
  schedule: string,
  now: number,
): { nextPing: Fact; downAfter: Fact } {
  if (hb.state === "paused")
    return {
      nextPing: { value: "none while paused", detail: schedule },
      downAfter: { value: "never while paused", detail: "resume to arm a deadline" },
    };
  if (hb.nextExpectedAt === null || hb.deadlineAt === null)
    return {
      nextPing: { value: "the first ping", detail: schedule },
      downAfter: { value: "not before the first ping", detail: `the first ping arms the deadline: ${schedule}` },
    };
  const nextPing = {
    value: when(hb.nextExpectedAt, now),
    detail: `${dateTime(hb.nextExpectedAt)}${hb.nextExpectedAt < now ? " · overdue" : ""}`,
  };
  // Down before its deadline: the job itself reported the failure.
  if (hb.state === "down" && hb.deadlineAt > now)
    return { nextPing, downAfter: { value: "down now", detail: "the last run reported a failure" } };
  return {
    nextPing,
    downAfter: {
      value: when(hb.deadlineAt, now),
      detail: `${dateTime(hb.deadlineAt)}${hb.rearmedAt ? ` · re-armed after a ping server outage` : ""}`,
    },
  };
}
