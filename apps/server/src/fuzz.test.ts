// 1,000 random or mutated bodies to every POST/PATCH/PUT route: never a 500, never a partial write.
import { createPrivateLocation } from "@vigil/core";
import { prng } from "@vigil/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing";

const PER_ROUTE = 1000;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function fuzzer(seed: number) {
  const r = prng(seed);
  const int = (n: number) => Math.floor(r() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const strings = [
    "",
    " ",
    "a",
    "iad",
    "http",
    "tcp",
    "1m",
    "30s",
    "2m",
    "GET",
    "POST",
    "eq",
    "statusCode",
    "http://127.0.0.1:9/x",
    "grpc://x",
    "ü😀",
    "\u0000",
    "a".repeat(5000),
    "<script>",
    "' OR 1=1 --",
    "NaN",
    "-1",
    "__proto__",
    "constructor",
  ];
  const numbers = [0, -1, 1, 3, 200, 65536, 1.5, -0.5, 1e308, Number.MAX_SAFE_INTEGER, 2 ** 53 + 1];
  const value = (depth = 0): Json => {
    const k = int(depth > 3 ? 4 : 7);
    if (k === 0) return null;
    if (k === 1) return r() < 0.5;
    if (k === 2) return pick(numbers);
    if (k === 3) return pick(strings);
    if (k === 4) return Array.from({ length: int(4) }, () => value(depth + 1));
    return Object.fromEntries(
      Array.from({ length: int(5) }, () => [
        pick([...strings, "name", "kind", "url", "config", "monitors", "results", "request", "regions"]),
        value(depth + 1),
      ]),
    );
  };
  const mutate = (v: Json, depth = 0): Json => {
    if (v === null || typeof v !== "object" || depth > 4 || r() < 0.25) return r() < 0.5 ? value(depth) : v;
    if (Array.isArray(v)) {
      const out = v.map((x) => (r() < 0.3 ? mutate(x, depth + 1) : x));
      if (r() < 0.2) out.push(value(depth + 1));
      if (r() < 0.2) out.splice(int(out.length + 1), 1);
      return out;
    }
    const out: { [k: string]: Json } = { ...v };
    for (const key of Object.keys(out)) {
      const p = r();
      if (p < 0.15) delete out[key];
      else if (p < 0.45) out[key] = mutate(out[key]!, depth + 1);
    }
    if (r() < 0.2) out[pick(strings)] = value(depth + 1);
    return out;
  };
  /** A body: a mutated valid one, a random value, or broken JSON text. */
  return (valid: Json): string => {
    const p = r();
    if (p < 0.7) return JSON.stringify(mutate(valid));
    if (p < 0.9) return JSON.stringify(value());
    const text = JSON.stringify(valid);
    return text.slice(0, int(text.length));
  };
}

let s: TestServer;
let serviceKey: string;
let monitorId: number;
let channelId: number;
beforeAll(async () => {
  s = await startTestServer();
  // The probe's region is one no fuzzed monitor lists, so "test" runs answer at once (no probe).
  serviceKey = (await createPrivateLocation(s.database.db, s.workspaceId, { name: "fuzz", region: "private" }, "operator")).key;
  monitorId = (
    await s.call("POST", "/v1/monitors", { kind: "http", frequency: "1m", regions: ["iad"], request: { url: "http://127.0.0.1:9/" } })
  ).body.id;
  channelId = (await s.call("POST", "/v1/channels", { name: "fuzz", kind: "webhook", config: { url: "http://127.0.0.1:9/h" } })).body.id;
});
afterAll(async () => s?.close());

const counts = async () => {
  const rs = await s.database.db.$client.execute(
    "select (select count(*) from monitor), (select count(*) from notification_channel), (select count(*) from monitor_channel), (select count(*) from private_location), (select count(*) from check_result), (select count(*) from audit_log), (select coalesce(sum(version), 0) from monitor), (select coalesce(max(updated_at), 0) from notification_channel)",
  );
  return JSON.stringify(rs.rows[0]);
};

const monitorBody: Json = {
  key: "k",
  name: "n",
  kind: "http",
  frequency: "1m",
  regions: ["iad"],
  retry: 3,
  timeout: "10s",
  request: { url: "http://127.0.0.1:9/", method: "GET", headers: { A: "b" } },
  assertions: [{ kind: "statusCode", compare: "eq", target: 200 }],
};
const routes: [string, () => string, Json, string?][] = [
  ["POST", () => "/v1/monitors", monitorBody],
  ["POST", () => "/v1/monitors/batch", { monitors: [monitorBody, { ...(monitorBody as object), key: "k2" }] }],
  ["POST", () => "/v1/monitors/apply", { monitors: [monitorBody], prune: false, dryRun: true }],
  ["POST", () => "/v1/monitors/test", { ...(monitorBody as object), regions: ["waw"] }],
  ["PATCH", () => `/v1/monitors/${monitorId}`, { name: "x", frequency: "5m" }],
  ["POST", () => "/v1/channels", { name: "c", kind: "webhook", config: { url: "http://127.0.0.1:9/h", headers: { X: "y" } } }],
  ["PATCH", () => `/v1/channels/${channelId}`, { name: "c2", enabled: true, config: { url: "http://127.0.0.1:9/h" } }],
  ["PUT", () => `/v1/channels/${channelId}/monitors`, { monitors: [1] }],
  ["POST", () => "/v1/private-locations", { name: "p", region: "iad" }],
  [
    "POST",
    () => "/v1/probe/results",
    {
      results: [
        { id: "01JZZZZZZZZZZZZZZZZZZZZZZZ", monitorId: 1, cronTimestamp: 1, startedAt: 1, status: "success", latencyMs: 1, attempts: 1 },
      ],
    },
    "probe",
  ],
  ["POST", () => "/v1/probe/runs/01JZZZZZZZZZZZZZZZZZZZZZZZ", { status: "success", latencyMs: 1, attempts: 1 }, "probe"],
];

describe("fuzzed request bodies", () => {
  routes.forEach(([method, path, valid, auth], i) => {
    it(`${method} ${path().replace(/\/(\d+|undefined|[0-9A-Z]{26})(?=\/|$)/g, "/:id")} never answers 500 and a refused body writes nothing`, {
      timeout: 240_000,
    }, async () => {
      const next = fuzzer(1000 + i);
      const seen = new Map<number, number>();
      // What the tables hold before each request: read again only after one that was accepted (and may write).
      let before = await counts();
      for (let n = 0; n < PER_ROUTE; n++) {
        const body = next(valid);
        const res = await fetch(`${s.url}${path()}`, {
          method,
          headers: { authorization: `Bearer ${auth === "probe" ? serviceKey : s.apiKey}`, "content-type": "application/json" },
          body,
        });
        const text = await res.text();
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        if (res.status >= 500 && res.status !== 504) expect.fail(`${res.status} for ${body.slice(0, 300)}: ${text.slice(0, 300)}`);
        if (res.status >= 400) {
          expect(JSON.parse(text).error.code, body.slice(0, 200)).toEqual(expect.any(String));
          expect(await counts(), `partial write for ${body.slice(0, 300)}`).toBe(before);
        } else before = await counts();
      }
      // The generator must reach both sides: some bodies accepted, most refused.
      expect([...seen.keys()].some((k) => k >= 400)).toBe(true);
    });
  });
});
