// The status machine without a database: each location's latest result in, the decision out.
import { describe, expect, it } from "vitest";
import { type CheckStatus, type Decision, decide, type EvaluationState, type MonitorStatus } from "./evaluate";

const LOCS = [
  { id: 1, region: "iad" },
  { id: 2, region: "ams" },
  { id: 3, region: "jnb" },
  { id: 4, region: "syd" },
];
const SLOT = 60_000;

interface Case {
  /** Monitor status before, and the slot it was decided at. */
  was?: [MonitorStatus, number | null];
  /** Regions the monitor runs in (default: all four). */
  regions?: string[];
  /** Latest result per location id: status@slot. */
  latest: Record<number, `${CheckStatus}@${number}`>;
  /** Locations that are offline. */
  offline?: number[];
  maintenance?: [number, number];
  deleted?: boolean;
}

function state(c: Case): EvaluationState {
  const [status, at] = c.was ?? ["active", null];
  const offline = new Set(c.offline ?? []);
  const locations = LOCS.map((l) => ({ ...l, online: !offline.has(l.id) }));
  return {
    monitor: {
      id: 7,
      workspaceId: 1,
      status,
      statusCronTimestamp: at === null ? null : at * SLOT,
      regions: c.regions ?? LOCS.map((l) => l.region),
      deletedAt: c.deleted ? 1 : null,
    },
    latest: Object.entries(c.latest).map(([id, v]) => {
      const [s, slot] = v.split("@") as [CheckStatus, string];
      const loc = locations.find((l) => l.id === Number(id))!;
      return {
        locationId: loc.id,
        region: loc.region,
        online: loc.online,
        status: s,
        cron: Number(slot) * SLOT,
        statusCode: null,
        latencyMs: 10,
        errorMessage: s === "error" ? `down at ${slot}` : null,
      };
    }),
    locations,
    maintenances: c.maintenance ? [{ startsAt: c.maintenance[0] * SLOT, endsAt: c.maintenance[1] * SLOT }] : [],
  };
}

/** The decision in one line: kind, status, slot, event. */
function summary(d: Decision): string {
  const slot = d.cron === null ? "-" : String(d.cron / SLOT);
  if (d.kind !== "move") return `${d.kind} ${d.status ?? "-"}@${slot}`;
  return `move ${d.status}@${slot} announces ${d.change}${d.suppressed ? " (suppressed)" : ""} witness ${d.witness.locationId}`;
}

const one = ["iad"];
const two = ["iad", "ams"];
describe("decide", () => {
  it.each<[string, Case, string]>([
    ["one location failing decides alone", { regions: one, latest: { 1: "error@1" } }, "move error@1 announces error witness 1"],
    ["one location slow is degraded", { regions: one, latest: { 1: "degraded@1" } }, "move degraded@1 announces degraded witness 1"],
    [
      "a healthy monitor staying healthy holds at the newer slot",
      { regions: one, was: ["active", 1], latest: { 1: "success@2" } },
      "hold active@2",
    ],
    [
      "recovery announces recovered",
      { regions: one, was: ["error", 1], latest: { 1: "success@2" } },
      "move active@2 announces recovered witness 1",
    ],
    [
      "error to slow announces degraded",
      { regions: one, was: ["error", 1], latest: { 1: "degraded@2" } },
      "move degraded@2 announces degraded witness 1",
    ],
    ["half of two failing is error", { regions: two, latest: { 1: "success@1", 2: "error@1" } }, "move error@1 announces error witness 2"],
    ["one of four failing is no alert", { latest: { 1: "error@1", 2: "success@1", 3: "success@1", 4: "success@1" } }, "hold active@1"],
    [
      "two of four failing alert",
      { latest: { 1: "error@1", 2: "error@1", 3: "success@1", 4: "success@1" } },
      "move error@1 announces error witness 1",
    ],
    [
      "a location that has not reported yet counts as healthy: the first to fail cannot alert alone",
      { latest: { 1: "error@1" } },
      "hold active@1",
    ],
    [
      "two failing while two have not reported is half: error",
      { latest: { 1: "error@1", 2: "error@1" } },
      "move error@1 announces error witness 1",
    ],
    [
      "an offline location leaves the vote: two of three failing alert",
      { offline: [4], latest: { 1: "error@2", 2: "error@2", 3: "success@2", 4: "success@1" } },
      "move error@2 announces error witness 1",
    ],
    [
      "an offline probe's stale red no longer holds the monitor down",
      { regions: two, was: ["error", 1], offline: [2], latest: { 1: "success@2", 2: "error@1" } },
      "move active@2 announces recovered witness 1",
    ],
    [
      "an offline probe's stale green does not hide an outage",
      { regions: two, offline: [2], latest: { 1: "error@1", 2: "success@0" } },
      "move error@1 announces error witness 1",
    ],
    [
      "every serving location offline: no data, the status stays",
      { regions: two, was: ["error", 1], offline: [1, 2], latest: { 1: "success@2", 2: "success@2" } },
      "settle error@-",
    ],
    ["a location of another region does not vote", { regions: one, latest: { 1: "success@1", 2: "error@1" } }, "hold active@1"],
    [
      "a late result from an older slot never moves the status back",
      { regions: one, was: ["error", 5], latest: { 1: "success@3" } },
      "settle error@3",
    ],
    ["a replay of the decided slot holds", { regions: one, was: ["error", 1], latest: { 1: "error@1" } }, "hold error@1"],
    ["a monitor with no results yet has nothing to decide", { regions: one, latest: {} }, "settle active@-"],
    ["a deleted monitor only settles its results", { regions: one, deleted: true, latest: { 1: "error@1" } }, "settle -@-"],
    [
      "a move inside a maintenance window is announced suppressed",
      { regions: one, maintenance: [0, 10], latest: { 1: "error@2" } },
      "move error@2 announces error (suppressed) witness 1",
    ],
    [
      "a move after the window is announced normally",
      { regions: one, maintenance: [0, 1], latest: { 1: "error@2" } },
      "move error@2 announces error witness 1",
    ],
    [
      "the newest result showing the new state is the witness",
      { regions: two, was: ["error", 1], latest: { 1: "success@3", 2: "success@4" } },
      "move active@4 announces recovered witness 2",
    ],
  ])("%s", (_name, c, expected) => {
    expect(summary(decide(state(c)))).toBe(expected);
  });

  it("the witness carries the failing result's message", () => {
    const d = decide(state({ regions: two, latest: { 1: "success@3", 2: "error@3" } }));
    expect(d.kind === "move" && d.witness.errorMessage).toBe("down at 3");
  });
});
