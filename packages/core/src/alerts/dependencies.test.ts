// Dependencies under any timing: the real ingest, evaluator, routing and timers on real sqld, on a simulated clock.
import { notificationDelivery, statusEvent } from "@vigil/db-schema";
import type { TestDatabase } from "@vigil/db-schema/testing";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../testing";
import { heldAlert } from "./dependencies";
import { HoldWorld, type Spec } from "./hold-world";

let t: TestDatabase;
useTestDatabase((started) => (t = started));

const logOf = async (w: HoldWorld, i: number) =>
  (
    await t.db
      .select({ outcome: notificationDelivery.outcome, error: notificationDelivery.error })
      .from(notificationDelivery)
      .innerJoin(statusEvent, eq(statusEvent.id, notificationDelivery.eventId))
      .where(eq(statusEvent.monitorId, w.ids[i]!))
  ).map((d) => `${d.outcome}: ${d.error}`);

describe("a child's alert waits until its parent's state is known as of the child's failure", () => {
  it("a child whose slot comes before its parent's next check never pages while the parent is down", async () => {
    // The child fails at 30 s; the parent's last result (20 s) is from before the outage, its next is at 50 s.
    const w = await HoldWorld.create(t.db, [
      { name: "Router", every: 30, phase: 20, outages: [[25, 100]] },
      { name: "App", every: 30, phase: 0, outages: [[25, 100]], parents: [0] },
    ]);
    await w.runTo(45);
    expect(await heldAlert(t.db, w.ws, w.ids[1]!)).toMatchObject({ held: true, reason: "held: parent Router down" });
    await w.runTo(200);
    expect(await w.summary()).toEqual(["Router error", "Router recovered"]);
    expect(await logOf(w, 1)).toContain("suppressed: suppressed: parent Router down");
  });

  it("with no probe answering, the parent's next scheduled result still holds the child within the bound", async () => {
    // The child fails at 40 s, its hold asks at 42 s; the parent's result at 50 s comes before 42 + 10 (timeout) + 5 s.
    const w = await HoldWorld.create(t.db, [
      { name: "Router", every: 30, phase: 20, outages: [[25, 100]] },
      { name: "App", every: 30, phase: 10, outages: [[25, 100]], parents: [0] },
    ]);
    w.answering = false;
    await w.runTo(200);
    expect(await w.summary()).toEqual(["Router error", "Router recovered"]);
  });

  it("a child still down when its parent recovers sends exactly one error, then one recovery", async () => {
    const w = await HoldWorld.create(t.db, [
      { name: "Router", every: 30, phase: 20, outages: [[25, 100]] },
      { name: "App", every: 30, phase: 0, outages: [[25, 220]], parents: [0] },
    ]);
    await w.runTo(300);
    const d = await w.deliveries();
    expect(d.map((x) => `${x.monitor} ${x.status}`)).toEqual(["Router error", "Router recovered", "App error", "App recovered"]);
    // Checked afresh when the parent is back (110 s), not at its own next slot.
    expect(d[2]!.at).toBeLessThan(120);
  });

  it("a child already up when its parent recovers sends nothing, neither error nor recovery", async () => {
    // The child's last result (90 s) is an error from before the parent's recovery at 110 s.
    const w = await HoldWorld.create(t.db, [
      { name: "Router", every: 30, phase: 20, outages: [[25, 100]] },
      { name: "App", every: 30, phase: 0, outages: [[25, 100]], parents: [0] },
    ]);
    await w.runTo(112);
    expect(await heldAlert(t.db, w.ws, w.ids[1]!)).toMatchObject({ held: true });
    await w.runTo(200);
    expect(await w.summary()).toEqual(["Router error", "Router recovered"]);
    expect(await heldAlert(t.db, w.ws, w.ids[1]!)).toBeNull();
  });

  it("with no probe answering at the parent's recovery, a held child waits for its own next check: up sends nothing, down sends one error", async () => {
    const w = await HoldWorld.create(t.db, [
      { name: "Router", every: 30, phase: 20, outages: [[25, 100]] },
      { name: "App", every: 30, phase: 0, outages: [[25, 100]], parents: [0] },
      { name: "Api", every: 30, phase: 0, outages: [[25, 200]], parents: [0] },
    ]);
    await w.runTo(100);
    w.answering = false;
    await w.runTo(115);
    expect(await heldAlert(t.db, w.ws, w.ids[2]!)).toMatchObject({
      held: true,
      reason: "held: parent Router recovered, checking this monitor again",
    });
    await w.runTo(260);
    const d = await w.deliveries();
    expect(d.map((x) => `${x.monitor} ${x.status}`)).toEqual(["Router error", "Router recovered", "Api error", "Api recovered"]);
    // Api's own result at 120 s says it is still down.
    expect(d[2]!.at).toBeLessThanOrEqual(120 + 5);
  });

  it("in a chain, only the grandparent pages; a grandchild still down after the chain is back sends one error", async () => {
    const w = await HoldWorld.create(t.db, [
      { name: "Core", every: 30, phase: 25, outages: [[10, 100]] },
      { name: "Router", every: 30, phase: 10, outages: [[10, 100]], parents: [0] },
      { name: "App", every: 30, phase: 0, outages: [[10, 260]], parents: [1] },
      { name: "Web", every: 30, phase: 15, outages: [[10, 100]], parents: [1] },
    ]);
    await w.runTo(330);
    expect((await w.summary()).sort()).toEqual(["App error", "App recovered", "Core error", "Core recovered"]);
  });

  it("with two parents, the child waits for both and sends one error only if still down after the later one", async () => {
    const w = await HoldWorld.create(t.db, [
      { name: "Router", every: 30, phase: 20, outages: [[25, 100]] },
      { name: "Database", every: 30, phase: 5, outages: [[25, 160]] },
      { name: "App", every: 30, phase: 0, outages: [[25, 260]], parents: [0, 1] },
    ]);
    await w.runTo(330);
    const d = await w.deliveries();
    expect(d.map((x) => `${x.monitor} ${x.status}`).sort()).toEqual(
      ["Router error", "Router recovered", "Database error", "Database recovered", "App error", "App recovered"].sort(),
    );
    const appError = d.find((x) => x.monitor === "App" && x.status === "error")!;
    const dbBack = d.find((x) => x.monitor === "Database" && x.status === "recovered")!;
    expect(appError.at).toBeGreaterThanOrEqual(dbBack.at);
  });
});

describe("a hold is bounded: a parent whose state cannot be known lets the child page, saying so", () => {
  it("a paused parent: the child pages after the short grace, its page and log saying the parent's state is unknown", async () => {
    const w = await HoldWorld.create(t.db, [
      { name: "Router", every: 30, phase: 20, outages: [], active: false },
      { name: "App", every: 30, phase: 0, outages: [[25, 100]], parents: [0] },
    ]);
    await w.runTo(40);
    const d = await w.deliveries();
    expect(d.map((x) => `${x.monitor} ${x.status}`)).toEqual(["App error"]);
    expect(d[0]!.at).toBeLessThanOrEqual(30 + 3);
    expect(await heldAlert(t.db, w.ws, w.ids[1]!)).toMatchObject({
      held: false,
      reason: "released: parent Router's state unknown (paused)",
    });
  });

  it("a parent whose location is offline: the child pages, saying no probe of the parent's locations is online", async () => {
    const w = await HoldWorld.create(t.db, [
      { name: "Router", every: 30, phase: 20, outages: [[25, 100]], region: "ams" },
      { name: "App", every: 30, phase: 0, outages: [[25, 100]], parents: [0] },
    ]);
    await w.runTo(22);
    await w.setOnline("ams", false);
    await w.runTo(40);
    expect(await w.summary()).toEqual(["App error"]);
    expect(await heldAlert(t.db, w.ws, w.ids[1]!)).toMatchObject({
      reason: "released: parent Router's state unknown (no probe of its locations is online)",
    });
  });

  it("a parent no probe answers for, checked every 5 min: the child pages after the parent's timeout plus the grace", async () => {
    const w = await HoldWorld.create(t.db, [
      { name: "Router", every: 300, phase: 20, outages: [[25, 1000]] },
      { name: "App", every: 30, phase: 0, outages: [[25, 1000]], parents: [0] },
    ]);
    w.answering = false;
    await w.runTo(100);
    const d = await w.deliveries();
    expect(d.map((x) => `${x.monitor} ${x.status}`)).toEqual(["App error"]);
    // Failed at 30 s; first look at 32 s asks the parent; 10 s timeout + 5 s grace; looks every 5 s.
    expect(d[0]!.at).toBeGreaterThanOrEqual(32 + 15);
    expect(d[0]!.at).toBeLessThanOrEqual(32 + 15 + 5);
    expect(await heldAlert(t.db, w.ws, w.ids[1]!)).toMatchObject({
      reason: "released: parent Router's state unknown (no probe answered in time)",
    });
  });
});

/** One outage of a parent and its children, every target down at once; each child back before, with or well after its parent. */
const storm = fc.record({
  children: fc.integer({ min: 1, max: 10 }),
  phases: fc.array(fc.integer({ min: 0, max: 29 }), { minLength: 11, maxLength: 11 }),
  start: fc.integer({ min: 40, max: 80 }),
  length: fc.integer({ min: 35, max: 150 }),
  /** Per child: back with the parent (0), or still down for this long after (seconds). */
  after: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 90, max: 150 })), { minLength: 10, maxLength: 10 }),
  /** How long a probe takes to answer a fresh check: within the parent's 10 s timeout. */
  answerMs: fc.integer({ min: 100, max: 9_000 }),
});

describe("property: one alert per outage of a parent and its children, whatever the slot phases", () => {
  it("the parent alerts once; a child alerts (once, then recovers once) only if still down after its parent is back", {
    timeout: 120_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(storm, async (s) => {
        const end = s.start + s.length;
        const specs: Spec[] = [
          { name: "parent", every: 30, phase: s.phases[0]!, outages: [[s.start, end]] },
          ...Array.from({ length: s.children }, (_, i) => ({
            name: `child ${i}`,
            every: 30,
            phase: s.phases[i + 1]!,
            outages: [[s.start, end + s.after[i]!]] as [number, number][],
            parents: [0],
          })),
        ];
        const w = await HoldWorld.create(t.db, specs);
        w.answerMs = s.answerMs;
        // Until the last child is back and its recovery routed.
        await w.runTo(end + Math.max(...s.after.slice(0, s.children)) + 45);
        const got = (await w.summary()).sort();
        const want = ["parent error", "parent recovered"];
        for (let i = 0; i < s.children; i++) if (s.after[i]! > 0) want.push(`child ${i} error`, `child ${i} recovered`);
        expect(got).toEqual(want.sort());
      }),
      { numRuns: 6, verbose: true },
    );
  });
});
