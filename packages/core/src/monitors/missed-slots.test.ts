import { type Db, privateLocation } from "@vigil/db-schema";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { countSilentSlots, markSilentLocations } from "../access/housekeeping";
import { createMonitor, updateMonitor } from "../index";
import { httpMonitor, probeResult, useTestDatabase, workspaceWithLocations } from "../testing";
import { recordResults } from "./ingest";

let db: Db;
useTestDatabase((t) => {
  db = t.db;
});

const I = 60_000;
const ok = { latencyMs: 5, attempts: 1 };

async function missed(locationId: number): Promise<number> {
  const [row] = await db.select({ n: privateLocation.slotsMissed }).from(privateLocation).where(eq(privateLocation.id, locationId));
  return row!.n;
}

describe("missed slots", () => {
  it("a gap between a location's results counts its slots once, re-sent results add nothing, and a silent location's slots count before results resume", async () => {
    const { ws, locations } = await workspaceWithLocations(db, "gaps", ["iad"]);
    const loc = locations[0]!;
    const m = await createMonitor(db, ws, httpMonitor("gaps"), "u");
    const s0 = Math.ceil((Date.now() + 1000) / I) * I;
    const send = (slots: number[], at = slots.at(-1)! + 1000) =>
      recordResults(db, loc, { results: slots.map((s) => probeResult(m.id, s, "success", ok)) }, at);

    await send([s0]);
    await send([s0 + I]);
    expect(await missed(loc.id)).toBe(0);
    // The probe was away for two slots.
    const back = await send([s0 + 4 * I]);
    expect(back.accepted).toBe(1);
    expect(await missed(loc.id)).toBe(2);
    await send([s0 + 4 * I]);
    expect(await missed(loc.id)).toBe(2);
    // A batch with a hole in it (the slot between its two results).
    await send([s0 + 5 * I, s0 + 7 * I]);
    expect(await missed(loc.id)).toBe(3);

    // All its probes fall silent after slot 7: offline, and every slot whose window is over counts, once.
    const quiet = s0 + 7 * I + 1000;
    expect(await markSilentLocations(db, quiet + 3 * I)).toEqual([loc.id]);
    expect(await countSilentSlots(db, s0 + 12 * I)).toBe(4); // slots 8-11; slot 12's window is still open
    expect(await countSilentSlots(db, s0 + 12 * I + 30_000)).toBe(0);
    expect(await missed(loc.id)).toBe(7);
    // Results resume at slot 14: 12 and 13 are the rest of the gap; a late result of a counted slot adds nothing.
    await send([s0 + 14 * I]);
    expect(await missed(loc.id)).toBe(9);
    await send([s0 + 9 * I], s0 + 14 * I + 2000);
    expect(await missed(loc.id)).toBe(9);
  });

  it("a monitor paused (or otherwise edited) between two results counts no missed slot for the pause", async () => {
    const { ws, locations } = await workspaceWithLocations(db, "paused", ["iad"]);
    const loc = locations[0]!;
    const m = await createMonitor(db, ws, httpMonitor("paused"), "u");
    const s0 = Math.floor(Date.now() / I) * I - 20 * I;
    await recordResults(db, loc, { results: [probeResult(m.id, s0, "success", ok)] });
    await updateMonitor(db, ws, m.id, { active: false }, "u");
    await updateMonitor(db, ws, m.id, { active: true }, "u");
    await recordResults(db, loc, { results: [probeResult(m.id, s0 + 10 * I, "success", ok)] });
    expect(await missed(loc.id)).toBe(0);
    // Without an edit the same gap counts.
    await recordResults(db, loc, { results: [probeResult(m.id, s0 + 15 * I, "success", ok)] });
    expect(await missed(loc.id)).toBe(4);
  });
});
