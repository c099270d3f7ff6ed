// Test-only: monitors with dependencies on a simulated clock, their targets going down and up as a scenario says,
// results fed through the real ingest, evaluator, routing and timers; fresh checks answered as a probe would.
import { alertTimer, type Db, privateLocation, statusEvent } from "@vigil/db-schema";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { ulid } from "ulid";
import { createChannel, createMonitors, dispatchEvents, evaluateMonitors, fireDueTimers, recordFreshCheck, recordResults } from "../index";
import { workspaceWithLocations } from "../testing";
import type { TimerSend } from "./follow-ups";

export interface Spec {
  name: string;
  /** Seconds between checks. */
  every: number;
  /** Offset of its slots from the start, in seconds. */
  phase: number;
  /** Its target's outages, [from, to) in seconds from the start. */
  outages: [number, number][];
  /** Indexes of its parents among the specs. */
  parents?: number[];
  region?: string;
  active?: boolean;
}

export interface Delivery {
  monitor: string;
  status: string;
  at: number;
}

const BASE = Date.UTC(2026, 10, 22, 10);
let worlds = 0;

export class HoldWorld {
  readonly sends: { send: TimerSend; at: number }[] = [];
  private asks: { id: number; askedAt: number }[] = [];
  now = BASE;
  /** Whether a probe answers fresh checks, and after how long. */
  answering = true;
  answerMs = 500;

  private constructor(
    readonly db: Db,
    readonly ws: number,
    readonly ids: number[],
    readonly specs: Spec[],
    private readonly locations: Map<string, { id: number; workspaceId: number; region: string }>,
  ) {}

  static async create(db: Db, specs: Spec[]): Promise<HoldWorld> {
    const regions = [...new Set(specs.map((s) => s.region ?? "iad"))];
    const { ws, locations } = await workspaceWithLocations(db, `holds-${++worlds}`, regions);
    await db.update(privateLocation).set({ online: true }).where(eq(privateLocation.workspaceId, ws));
    const ids = (
      await createMonitors(
        db,
        ws,
        specs.map((s, i) => ({
          key: `m${i}`,
          name: s.name,
          kind: "tcp",
          frequency: s.every % 60 === 0 ? `${s.every / 60}m` : `${s.every}s`,
          timeout: "10s",
          regions: [s.region ?? "iad"],
          request: { host: "127.0.0.1", port: 9 },
        })),
        "u",
      )
    ).map((m) => m.id);
    const { updateMonitor } = await import("../index");
    for (const [i, s] of specs.entries())
      if (s.parents?.length || s.active === false)
        await updateMonitor(db, ws, ids[i]!, { dependsOn: (s.parents ?? []).map((p) => ids[p]!), active: s.active ?? true }, "u");
    await createChannel(db, ws, { name: "hook", kind: "webhook", config: { url: "https://hooks.example.com/vigil" }, monitors: ids }, "u");
    return new HoldWorld(db, ws, ids, specs, new Map(locations.map((l) => [l.region, l])));
  }

  /** Whether monitor `i`'s target is down at `ms` (simulated). */
  isDown(i: number, ms: number): boolean {
    const s = (ms - BASE) / 1000;
    return this.specs[i]!.outages.some(([from, to]) => s >= from && s < to);
  }

  async setOnline(region: string, online: boolean) {
    await this.db
      .update(privateLocation)
      .set({ online })
      .where(eq(privateLocation.id, this.locations.get(region)!.id));
  }

  /** Runs the clock to `toSeconds` from the start, one step per second. */
  async runTo(toSeconds: number): Promise<void> {
    const queue = async (sends: TimerSend[]) => {
      for (const send of sends) this.sends.push({ send, at: this.now });
    };
    const ask = (id: number, askedAt: number) => void this.asks.push({ id, askedAt });
    const until = BASE + toSeconds * 1000;
    while (this.now < until) {
      const prev = this.now;
      this.now = Math.min(until, await this.nextMoment());
      const due: number[] = [];
      for (const [i, s] of this.specs.entries()) {
        if (s.active === false) continue;
        const every = s.every * 1000;
        const k = Math.floor((this.now - BASE - s.phase * 1000) / every);
        const slot = BASE + s.phase * 1000 + k * every;
        if (k < 0 || slot <= prev) continue;
        const down = this.isDown(i, slot);
        const out = await recordResults(
          this.db,
          this.locations.get(s.region ?? "iad")!,
          {
            results: [
              {
                id: ulid(),
                monitorId: this.ids[i]!,
                cronTimestamp: slot,
                startedAt: slot,
                status: down ? "error" : "success",
                latencyMs: 5,
                attempts: 1,
                ...(down ? { errorMessage: "connection refused" } : {}),
              },
            ],
          },
          this.now,
        );
        due.push(...out.toEvaluate.map((e) => e.monitorId));
      }
      if (this.answering)
        for (const a of this.asks.filter((a) => a.askedAt + this.answerMs <= this.now)) {
          this.asks.splice(this.asks.indexOf(a), 1);
          const down = this.isDown(this.ids.indexOf(a.id), a.askedAt);
          await recordFreshCheck(this.db, a.id, a.askedAt, down ? "error" : "success", this.now);
        }
      if (due.length > 0) {
        const events = (await evaluateMonitors(this.db, due, this.now)).flatMap((e) => (e.event ? [e.event] : []));
        if (events.length > 0) await dispatchEvents(this.db, events, queue, this.now);
      }
      await fireDueTimers(this.db, queue, { nowMs: this.now, recheckMs: 5_000, ask });
    }
  }

  /** The next second anything happens: a slot, a probe's answer, a timer coming due. */
  private async nextMoment(): Promise<number> {
    const next = [this.now + 60_000];
    for (const s of this.specs) {
      if (s.active === false) continue;
      const every = s.every * 1000;
      const k = Math.max(0, Math.floor((this.now - BASE - s.phase * 1000) / every) + 1);
      next.push(BASE + s.phase * 1000 + k * every);
    }
    if (this.answering) for (const a of this.asks) next.push(a.askedAt + this.answerMs);
    const [due] = await this.db
      .select({ at: sql<number | null>`min(${alertTimer.dueAt})` })
      .from(alertTimer)
      .where(and(eq(alertTimer.workspaceId, this.ws), isNull(alertTimer.firedAt)));
    if (due?.at != null) next.push(Number(due.at));
    // Whole seconds, never the present again.
    return Math.max(this.now + 1000, Math.ceil(Math.min(...next) / 1000) * 1000);
  }

  /** Every alert and recovery sent, by monitor name, in order; `at` in seconds from the start. */
  async deliveries(): Promise<Delivery[]> {
    const ids = [...new Set(this.sends.map((s) => s.send.eventId))];
    const events = ids.length > 0 ? await this.db.select().from(statusEvent).where(inArray(statusEvent.id, ids)) : [];
    return this.sends.map(({ send, at }) => {
      const ev = events.find((e) => e.id === send.eventId)!;
      return { monitor: this.specs[this.ids.indexOf(ev.monitorId)]!.name, status: ev.status, at: (at - BASE) / 1000 };
    });
  }

  /** Deliveries in one line each: "name status". */
  async summary(): Promise<string[]> {
    return (await this.deliveries()).map((d) => `${d.monitor} ${d.status}`);
  }
}
