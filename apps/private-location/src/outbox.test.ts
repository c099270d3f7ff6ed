import { appendFileSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IngestResult } from "@vigil/api-contract";
import { pino } from "pino";
import { ulid } from "ulid";
import { afterEach, describe, expect, it } from "vitest";
import { type DropReason, Outbox, type OutboxOptions } from "./outbox";
import { removeDir } from "./test-harness";

const dirs: string[] = [];
const open: Outbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
  for (const d of dirs.splice(0)) removeDir(d);
});

const T0 = 1_800_000_000_000;
const rec = (i: number, monitorId = 1): IngestResult => ({
  id: ulid(),
  monitorId,
  cronTimestamp: T0 + i * 30_000,
  startedAt: T0 + i * 30_000 + 2,
  status: "success",
  latencyMs: 1.25,
  attempts: 1,
  timings: { connect: 1.25, total: 1.3 },
});

function setup(over: Partial<OutboxOptions> = {}) {
  const dir = over.dir ?? mkdtempSync(join(tmpdir(), "vigil-outbox-"));
  if (!over.dir) dirs.push(dir);
  const logs: Record<string, unknown>[] = [];
  const drops: { count: number; reason: DropReason }[] = [];
  const logger = pino({ level: "info" }, { write: (s: string) => logs.push(JSON.parse(s)) });
  const opts: OutboxOptions = {
    dir,
    maxBytes: 1 << 20,
    maxAgeMs: 72 * 3_600_000,
    commitMs: 5,
    logger,
    onDrop: (count, reason) => drops.push({ count, reason }),
    ...over,
  };
  return {
    dir,
    logs,
    drops,
    async open(): Promise<Outbox> {
      const o = await Outbox.open(opts);
      open.push(o);
      return o;
    },
  };
}

/** Everything left to send, acknowledging as a sender would. */
async function drain(o: Outbox, batch = 1000): Promise<IngestResult[]> {
  const out: IngestResult[] = [];
  for (let b = await o.read(batch); b; b = await o.read(batch)) {
    out.push(...b.records);
    await o.ack(b.end);
  }
  return out;
}

const segmentFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".jsonl"));

describe("outbox", () => {
  it("has a result on disk before the sender can read it, and hands results out in order", async () => {
    const s = setup({ commitMs: 40 });
    const o = await s.open();
    const records = [rec(1), rec(2), rec(3)];
    const written = records.map((r) => o.append(r));
    expect(await o.read(10)).toBeNull(); // not committed yet: not sendable
    expect(await Promise.all(written)).toEqual([true, true, true]);
    const onDisk = segmentFiles(s.dir).flatMap((f) => readFileSync(join(s.dir, f), "utf8").split("\n").filter(Boolean));
    expect(onDisk.map((l) => JSON.parse(l).id)).toEqual(records.map((r) => r.id));
    const batch = await o.read(10);
    expect(batch?.records).toEqual(records);
  });

  it("sends in batches of at most the asked size", async () => {
    const o = await setup().open();
    await Promise.all(Array.from({ length: 7 }, (_, i) => o.append(rec(i))));
    const sizes: number[] = [];
    for (let b = await o.read(3); b; b = await o.read(3)) {
      sizes.push(b.records.length);
      await o.ack(b.end);
    }
    expect(sizes).toEqual([3, 3, 1]);
    expect(o.depth).toBe(0);
  });

  it("does not hand out acknowledged results again, also after a restart", async () => {
    const s = setup();
    const a = await s.open();
    const records = Array.from({ length: 5 }, (_, i) => rec(i));
    await Promise.all(records.map((r) => a.append(r)));
    const first = await a.read(2);
    await a.ack(first!.end);
    const unacked = await a.read(10); // read but never acknowledged: the server did not answer
    expect(unacked?.records).toHaveLength(3);
    await a.close();

    const b = await s.open();
    expect(b.depth).toBe(3);
    expect((await drain(b)).map((r) => r.id)).toEqual(records.slice(2).map((r) => r.id));
  });

  it("after a crash, recovers every committed result and skips a torn last line", async () => {
    const s = setup();
    const crashed = await s.open();
    const records = Array.from({ length: 4 }, (_, i) => rec(i));
    await Promise.all(records.map((r) => crashed.append(r)));
    // The process died in the middle of writing the next line (no close, no flush).
    const [segment] = segmentFiles(s.dir);
    appendFileSync(join(s.dir, segment!), JSON.stringify(rec(99)).slice(0, 40));

    const recovered = await s.open();
    expect(recovered.depth).toBe(4);
    expect(s.drops).toEqual([{ count: 1, reason: "unreadable" }]);
    expect(s.logs.some((l) => /torn last line/.test(String(l.msg)))).toBe(true);
    const later = rec(5);
    await recovered.append(later);
    expect((await drain(recovered)).map((r) => r.id)).toEqual([...records, later].map((r) => r.id));
    await recovered.close();
    await s.open(); // the torn piece was cut off: not reported again
    expect(s.drops).toHaveLength(1);
  });

  it("when full, drops the oldest results first and logs how many", async () => {
    const s = setup({ maxBytes: 20_000, segmentBytes: 2_000 });
    const o = await s.open();
    const records = Array.from({ length: 300 }, (_, i) => rec(i));
    for (const r of records) await o.append(r);
    const dropped = s.drops.filter((d) => d.reason === "size").reduce((n, d) => n + d.count, 0);
    expect(dropped).toBeGreaterThan(0);
    expect(o.bytes).toBeLessThanOrEqual(20_000);
    const left = await drain(o);
    expect(left.length + dropped).toBe(300);
    // What is left is the newest, in order.
    expect(left.map((r) => r.id)).toEqual(records.slice(300 - left.length).map((r) => r.id));
    const logged = s.logs.filter((l) => /full, dropped the oldest/.test(String(l.msg))).reduce((n, l) => n + Number(l.dropped), 0);
    expect(logged).toBe(dropped);
  });

  it("drops results older than the age bound and logs how many", async () => {
    let now = T0;
    const s = setup({ maxAgeMs: 3_600_000, now: () => now });
    const o = await s.open();
    const old = Array.from({ length: 10 }, (_, i) => rec(i));
    await Promise.all(old.map((r) => o.append(r)));
    now += 2 * 3_600_000; // two hours later, with the server still away
    const fresh = Array.from({ length: 5 }, (_, i) => rec(100 + i));
    await Promise.all(fresh.map((r) => o.append(r)));
    await o.enforceBounds();
    expect(s.drops).toEqual([{ count: 10, reason: "age" }]);
    expect(s.logs.find((l) => /older than the age bound/.test(String(l.msg)))?.dropped).toBe(10);
    expect((await drain(o)).map((r) => r.id)).toEqual(fresh.map((r) => r.id));
  });

  it("keeps a partly sent segment's position when a bound drops it meanwhile", async () => {
    const s = setup({ maxBytes: 6_000, segmentBytes: 1_000 });
    const o = await s.open();
    for (let i = 0; i < 10; i++) await o.append(rec(i));
    const inFlight = await o.read(2);
    for (let i = 10; i < 60; i++) await o.append(rec(i)); // the oldest segments go while the batch is out
    await o.ack(inFlight!.end); // late acknowledgement of a dropped segment: ignored
    const left = await drain(o);
    const dropped = s.drops.reduce((n, d) => n + d.count, 0);
    // The in-flight two count as dropped: the outbox cannot know the server took them.
    expect(dropped).toBeGreaterThanOrEqual(2);
    expect(left.length + dropped).toBe(60);
    expect(left.at(-1)?.cronTimestamp).toBe(T0 + 59 * 30_000);
    expect(new Set(left.map((r) => r.id)).size).toBe(left.length);
  });
});
