import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IngestResult } from "@vigil/api-contract";
import { pino } from "pino";
import { ulid } from "ulid";
import { afterEach, describe, expect, it } from "vitest";
import { ServerClient } from "./client";
import { Outbox } from "./outbox";
import { Sender } from "./sender";
import { removeDir, waitFor } from "./test-harness";

const BAD_MONITOR = 666;
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** A stand-in for the server's /v1/probe/results: rejects any batch holding a result of BAD_MONITOR. */
async function fakeIngest(nameRows: boolean, failFirst = 0) {
  const stored: IngestResult[] = [];
  const requests: number[] = [];
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      const { results } = JSON.parse(raw) as { results: IngestResult[] };
      requests.push(results.length);
      if (requests.length <= failFirst) {
        res.writeHead(503, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: "unavailable", message: "database busy" } }));
        return;
      }
      const bad = results.flatMap((r, i) => (r.monitorId === BAD_MONITOR ? [i] : []));
      if (bad.length > 0) {
        const issues = nameRows ? bad.map((i) => ({ path: `results.${i}.monitorId`, message: "is not allowed" })) : [];
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: "invalid_input", message: "results: invalid", issues } }));
        return;
      }
      stored.push(...results);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ accepted: results.length, duplicates: 0, ignored: 0, queued: true }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, stored, requests };
}

async function sending(url: string, records: IngestResult[]) {
  const dir = mkdtempSync(join(tmpdir(), "vigil-sender-"));
  closers.push(() => removeDir(dir));
  const logs: Record<string, unknown>[] = [];
  const logger = pino({ level: "info" }, { write: (s: string) => logs.push(JSON.parse(s)) });
  const outbox = await Outbox.open({ dir, maxBytes: 1 << 20, maxAgeMs: 3_600_000, commitMs: 5, logger });
  closers.push(() => outbox.close());
  await Promise.all(records.map((r) => outbox.append(r)));
  let rejected = 0;
  let resent = 0;
  const sender = new Sender({
    outbox,
    client: new ServerClient(url, "vgl_loc_test"),
    logger,
    batchSize: 500,
    intervalMs: 20,
    maxBackoffMs: 200,
    onRejected: (n) => {
      rejected += n;
    },
    onResent: (n) => {
      resent += n;
    },
  });
  sender.start();
  closers.push(() => sender.stop());
  await waitFor("the outbox to empty", () => outbox.depth === 0, 10_000, 20);
  return { logs, rejected: () => rejected, resent: () => resent };
}

const rec = (i: number, monitorId = 1): IngestResult => ({
  id: ulid(),
  monitorId,
  cronTimestamp: 1_800_000_000_000 + i * 30_000,
  startedAt: 1_800_000_000_000 + i * 30_000,
  status: "success",
  latencyMs: 2,
  attempts: 1,
});

describe("sending results", () => {
  it("drops only the rows a rejected batch names and delivers the rest", async () => {
    const server = await fakeIngest(true);
    const records = Array.from({ length: 40 }, (_, i) => rec(i, i === 7 || i === 30 ? BAD_MONITOR : 1));
    const s = await sending(server.url, records);
    expect(server.stored.map((r) => r.id)).toEqual(records.filter((r) => r.monitorId !== BAD_MONITOR).map((r) => r.id));
    expect(s.rejected()).toBe(2);
    expect(server.requests).toEqual([40, 38]);
    const logged = s.logs.filter((l) => l.msg === "the server rejected a result; dropped");
    expect(logged.map((l) => l.monitorId)).toEqual([BAD_MONITOR, BAD_MONITOR]);
  });

  it("halves a rejected batch that names no row until the bad result stands alone", async () => {
    const server = await fakeIngest(false);
    const records = Array.from({ length: 64 }, (_, i) => rec(i, i === 21 ? BAD_MONITOR : 1));
    const s = await sending(server.url, records);
    expect(server.stored).toHaveLength(63);
    expect(new Set(server.stored.map((r) => r.id)).size).toBe(63);
    expect(s.rejected()).toBe(1);
    // 64 → 32 → 16 → 8 → 4 → 2 → 1: a handful of requests, not one per row.
    expect(server.requests.length).toBeLessThanOrEqual(2 * Math.log2(64) + 1);
  });

  it("counts the results it sends again after a failed send, the only doubles a probe makes", async () => {
    const server = await fakeIngest(true, 2);
    const records = Array.from({ length: 30 }, (_, i) => rec(i));
    const s = await sending(server.url, records);
    expect(server.stored.map((r) => r.id)).toEqual(records.map((r) => r.id));
    expect(server.requests).toEqual([30, 30, 30]);
    expect(s.resent()).toBe(60);
  });

  it("keeps results while the server is away and sends them, in order, once it answers", async () => {
    const server = await fakeIngest(true);
    const down = "http://127.0.0.1:9"; // nothing listens on the discard port
    const dir = mkdtempSync(join(tmpdir(), "vigil-sender-"));
    closers.push(() => removeDir(dir));
    const logger = pino({ level: "silent" });
    const outbox = await Outbox.open({ dir, maxBytes: 1 << 20, maxAgeMs: 3_600_000, commitMs: 5, logger });
    closers.push(() => outbox.close());
    const records = Array.from({ length: 12 }, (_, i) => rec(i));
    await Promise.all(records.map((r) => outbox.append(r)));
    const away = new Sender({
      outbox,
      client: new ServerClient(down, "vgl_loc_test"),
      logger,
      batchSize: 5,
      intervalMs: 20,
      maxBackoffMs: 100,
    });
    away.start();
    await new Promise((r) => setTimeout(r, 300));
    await away.stop();
    expect(outbox.depth).toBe(12);
    const back = new Sender({
      outbox,
      client: new ServerClient(server.url, "vgl_loc_test"),
      logger,
      batchSize: 5,
      intervalMs: 20,
      maxBackoffMs: 100,
    });
    back.start();
    closers.push(() => back.stop());
    await waitFor("the outbox to empty", () => outbox.depth === 0, 10_000, 20);
    expect(server.stored.map((r) => r.id)).toEqual(records.map((r) => r.id));
    expect(server.requests).toEqual([5, 5, 2]);
  });
});
