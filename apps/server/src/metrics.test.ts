import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { createPrivateLocation, evaluateHeartbeats } from "@vigil/core";
import { heartbeat, monitor, monitorLocationStatus } from "@vigil/db-schema";
import { eq } from "drizzle-orm";
import { ulid } from "ulid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.close());

const slot = Date.UTC(2026, 10, 20, 12);
const monitorBody = (key: string, tags: string[]) => ({
  key,
  name: `Service "${key}"`,
  kind: "http",
  frequency: "1m",
  regions: ["fra", "iad"],
  tags,
  request: { url: `http://127.0.0.1:9/${key}` },
});

async function scrape(query = "", token?: string | null) {
  const res = await fetch(`${s.url}/v1/metrics${query}`, {
    headers: token === null ? {} : { authorization: `Bearer ${token ?? s.apiKey}` },
  });
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

/**
 * The scrape read by the Prometheus project's own text-format parser (its Python client, Debian's
 * python3-prometheus-client): what a Prometheus server would take from the endpoint.
 */
const PARSE = `import sys, json
from prometheus_client.parser import text_string_to_metric_families
print(json.dumps([{"name": f.name, "type": f.type, "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for s in f.samples]} for f in text_string_to_metric_families(sys.stdin.read())]))`;
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
interface Family {
  name: string;
  type: string;
  samples: Sample[];
}
function parse(text: string): { families: Map<string, Family>; samples: Sample[] } {
  const families = JSON.parse(
    execFileSync("/usr/bin/python3", ["-c", PARSE], { input: text, encoding: "utf8", maxBuffer: 2 ** 28 }),
  ) as Family[];
  return { families: new Map(families.map((f) => [f.name, f])), samples: families.flatMap((f) => f.samples) };
}
const pick = (samples: Sample[], name: string, monitorId: number, location: string, extra: Record<string, string> = {}) =>
  samples.filter(
    (m) =>
      m.name === name &&
      m.labels.monitor_id === String(monitorId) &&
      m.labels.location === location &&
      Object.entries(extra).every(([k, v]) => m.labels[k] === v),
  );
const value = (samples: Sample[], name: string, monitorId: number, location: string, extra: Record<string, string> = {}) => {
  const found = pick(samples, name, monitorId, location, extra);
  return found.length === 1 ? found[0]!.value : undefined;
};

interface Stored {
  monitorId: number;
  location: string;
  status: string;
  latencyMs: number;
}
/** What the database holds, read independently of the endpoint. */
async function stored(): Promise<Stored[]> {
  const r = await s.database.db.$client.execute(
    "select r.monitor_id, l.name as location, r.status, r.latency_ms from check_result r join private_location l on l.id = r.location_id",
  );
  return r.rows.map((x) => ({
    monitorId: Number(x.monitor_id),
    location: String(x.location),
    status: String(x.status),
    latencyMs: Number(x.latency_ms),
  }));
}

describe("Prometheus scrape of the workspace's monitors", () => {
  let fra: { serviceKey: string };
  let iad: { serviceKey: string };
  let api: number;
  let web: number;
  const send = (key: string, monitorId: number, rows: [number, string, number][]) =>
    s.call(
      "POST",
      "/v1/probe/results",
      {
        results: rows.map(([minute, status, latencyMs]) => ({
          id: ulid(),
          monitorId,
          cronTimestamp: slot + minute * 60_000,
          startedAt: slot + minute * 60_000,
          status,
          latencyMs,
          attempts: 1,
          ...(status === "error" ? { errorMessage: "connection refused" } : {}),
        })),
      },
      key,
    );

  beforeAll(async () => {
    fra = (await s.call("POST", "/v1/private-locations", { name: "rack-fra", region: "fra" })).body;
    iad = (await s.call("POST", "/v1/private-locations", { name: "rack-iad", region: "iad" })).body;
    api = (await s.call("POST", "/v1/monitors", monitorBody("api", ["team:payments", "prod"]))).body.id;
    web = (await s.call("POST", "/v1/monitors", monitorBody("web", ["team:web"]))).body.id;
    expect([api, web].every(Number.isInteger)).toBe(true);
    await send(fra.serviceKey, api, [
      [0, "success", 30],
      [1, "success", 80],
      [2, "degraded", 400],
      [3, "error", 1200],
    ]);
    await send(iad.serviceKey, api, [[0, "success", 60]]);
    await send(fra.serviceKey, web, [
      [0, "success", 20],
      [1, "degraded", 2600],
    ]);
  });

  it("a Prometheus parser reads every monitor and location with values equal to the stored results", async () => {
    const res = await scrape("?tags=team,prod");
    expect(res.status).toBe(200);
    expect(res.type).toContain("text/plain; version=0.0.4");
    const { families, samples: all } = parse(res.text);
    expect(families.get("vigil_monitor_checks")?.type).toBe("counter");
    expect(families.get("vigil_monitor_latency_seconds")?.type).toBe("histogram");
    expect(families.get("vigil_monitor_up")?.type).toBe("gauge");
    expect(families.get("vigil_monitor_info")?.type).toBe("gauge");
    const rows = await stored();
    const series = [
      [api, "rack-fra"],
      [api, "rack-iad"],
      [web, "rack-fra"],
    ] as const;
    for (const [id, location] of series) {
      const mine = rows.filter((r) => r.monitorId === id && r.location === location);
      expect(mine.length).toBeGreaterThan(0);
      expect(value(all, "vigil_monitor_checks_total", id, location)).toBe(mine.length);
      expect(value(all, "vigil_monitor_checks_failed_total", id, location)).toBe(mine.filter((r) => r.status === "error").length);
      expect(value(all, "vigil_monitor_latency_seconds_count", id, location)).toBe(mine.length);
      expect(value(all, "vigil_monitor_latency_seconds_sum", id, location)).toBeCloseTo(
        mine.reduce((a, r) => a + r.latencyMs, 0) / 1000,
        6,
      );
      const buckets = pick(all, "vigil_monitor_latency_seconds_bucket", id, location);
      expect(buckets.length).toBe(10);
      for (const b of buckets)
        expect(b.value, `bucket le=${b.labels.le}`).toBe(
          b.labels.le === "+Inf" ? mine.length : mine.filter((r) => r.latencyMs / 1000 <= Number(b.labels.le)).length,
        );
    }
    // The latest result of each location decides up, status and the last check time.
    expect(value(all, "vigil_monitor_up", api, "rack-fra")).toBe(0);
    expect(value(all, "vigil_monitor_up", api, "rack-iad")).toBe(1);
    expect(value(all, "vigil_monitor_status", api, "rack-fra", { status: "error" })).toBe(1);
    expect(value(all, "vigil_monitor_status", api, "rack-fra", { status: "success" })).toBe(0);
    expect(value(all, "vigil_monitor_status", web, "rack-fra", { status: "degraded" })).toBe(1);
    expect(value(all, "vigil_monitor_last_check_timestamp_seconds", api, "rack-fra")).toBe((slot + 3 * 60_000) / 1000);
    // Series are named by monitor_id and location alone; the info series carries the other labels (the name
    // escaped, chosen tags as tag_<name>) with the value 1, for joins.
    for (const x of all.filter((x) => x.name !== "vigil_monitor_info"))
      expect(
        Object.keys(x.labels).filter((k) => k !== "le" && k !== "status"),
        x.name,
      ).toEqual(["monitor_id", "location"]);
    expect(pick(all, "vigil_monitor_info", api, "rack-fra")).toEqual([
      {
        name: "vigil_monitor_info",
        value: 1,
        labels: {
          monitor_id: String(api),
          monitor_name: 'Service "api"',
          kind: "http",
          location: "rack-fra",
          region: "fra",
          tag_team: "payments",
          tag_prod: "true",
        },
      },
    ]);
    expect(pick(all, "vigil_monitor_info", web, "rack-fra")[0]?.labels).toMatchObject({ tag_team: "web", tag_prod: "" });
  });

  it('a heartbeat has its up, status and last ping series (location "server"): a cron job that fails is down in Prometheus', async () => {
    const hb = (await s.call("POST", "/v1/monitors", { kind: "heartbeat", name: "nightly backup", request: { period: "1h" } })).body
      .id as number;
    const before = parse((await scrape()).text).samples;
    expect(value(before, "vigil_monitor_up", hb, "server")).toBe(1);
    expect(pick(before, "vigil_monitor_info", hb, "server")[0]?.labels).toMatchObject({
      kind: "heartbeat",
      monitor_name: "nightly backup",
    });
    // No ping yet: no made-up ping time; a heartbeat has no checks or latency to count.
    expect(pick(before, "vigil_monitor_last_ping_timestamp_seconds", hb, "server")).toEqual([]);
    expect(
      before
        .filter((x) => x.labels.monitor_id === String(hb))
        .map((x) => x.name)
        .sort(),
    ).toEqual(["vigil_monitor_info", "vigil_monitor_status", "vigil_monitor_status", "vigil_monitor_status", "vigil_monitor_up"]);

    const token = ((await s.call("GET", `/v1/heartbeats/${hb}`)).body.pingUrl as string).split("/ping/")[1]!;
    expect((await fetch(`${s.url}/ping/${token}/fail`, { method: "POST", body: "disk full" })).status).toBe(200);
    expect((await evaluateHeartbeats(s.database.db, Date.now() + 10)).map((e) => e.status)).toEqual(["error"]);
    const [row] = await s.database.db.select().from(heartbeat).where(eq(heartbeat.monitorId, hb));
    const after = parse((await scrape()).text).samples;
    expect(value(after, "vigil_monitor_up", hb, "server")).toBe(0);
    expect(value(after, "vigil_monitor_status", hb, "server", { status: "error" })).toBe(1);
    expect(value(after, "vigil_monitor_last_ping_timestamp_seconds", hb, "server")).toBe(row!.lastPingAt! / 1000);
    // The monitors checked by probes keep their series beside it.
    expect(value(after, "vigil_monitor_up", api, "rack-iad")).toBe(1);
  });

  it("an HTTPS monitor's certificate expiry appears in days; monitors without one get no made-up value", async () => {
    const secure = (await s.call("POST", "/v1/monitors", monitorBody("secure", []))).body.id as number;
    const notAfter = Date.now() + 10 * 86_400_000;
    const res = await s.call(
      "POST",
      "/v1/probe/results",
      {
        results: [
          {
            id: ulid(),
            monitorId: secure,
            cronTimestamp: slot,
            startedAt: slot,
            status: "success",
            latencyMs: 40,
            attempts: 1,
            certificate: { subject: "CN=secure", sans: ["secure.example"], issuer: "CN=Test CA", notAfter, valid: true },
          },
        ],
      },
      fra.serviceKey,
    );
    expect(res.status).toBeLessThan(300);
    const all = parse((await scrape()).text).samples;
    expect(value(all, "vigil_monitor_cert_expiry_days", secure, "rack-fra")).toBeCloseTo(10, 1);
    expect(pick(all, "vigil_monitor_cert_expiry_days", api, "rack-fra")).toEqual([]);
  });

  it("counters only grow by the results stored since: scraping again never counts a result twice", async () => {
    const total = async () => value(parse((await scrape()).text).samples, "vigil_monitor_checks_total", api, "rack-fra");
    const before = await total();
    expect(await total()).toBe(before);
    await send(fra.serviceKey, api, [
      [4, "error", 90],
      [5, "success", 45],
    ]);
    const after = await total();
    expect(after).toBe(before! + 2);
    expect(after).toBe((await stored()).filter((r) => r.monitorId === api && r.location === "rack-fra").length);
  });

  it("a name with tabs, a newline, a backslash, quotes and accents keeps every character in its label, tags beside it", async () => {
    const name = 'Caf\u00e9 \t"K\u00f6ln"\nline two \\ end\t';
    const odd = (await s.call("POST", "/v1/monitors", { ...monitorBody("odd", ["team:caf\u00e9", "prod"]), name })).body.id as number;
    expect(Number.isInteger(odd)).toBe(true);
    await send(fra.serviceKey, odd, [[0, "degraded", 300]]);
    const all = parse((await scrape("?tags=team,prod")).text).samples;
    expect(pick(all, "vigil_monitor_info", odd, "rack-fra")[0]?.labels).toEqual({
      monitor_id: String(odd),
      monitor_name: name,
      kind: "http",
      location: "rack-fra",
      region: "fra",
      tag_team: "caf\u00e9",
      tag_prod: "true",
    });
    expect(value(all, "vigil_monitor_status", odd, "rack-fra", { status: "degraded" })).toBe(1);
    expect(value(all, "vigil_monitor_latency_seconds_bucket", odd, "rack-fra", { le: "0.5" })).toBe(1);
    expect(value(all, "vigil_monitor_latency_seconds_bucket", odd, "rack-fra", { le: "0.25" })).toBe(0);
  });

  it("renaming a monitor keeps its series (counters, histogram) and changes only its info series' name", async () => {
    const before = parse((await scrape()).text).samples;
    expect((await s.call("PATCH", `/v1/monitors/${web}`, { name: "Web (renamed)" })).status).toBe(200);
    const after = parse((await scrape()).text).samples;
    expect(pick(after, "vigil_monitor_info", web, "rack-fra")[0]?.labels.monitor_name).toBe("Web (renamed)");
    const series = (xs: Sample[]) =>
      xs.filter((x) => x.name !== "vigil_monitor_info" && x.labels.monitor_id === String(web)).map((x) => JSON.stringify(x));
    expect(series(after)).toEqual(series(before));
    expect(series(after).length).toBeGreaterThan(15);
  });

  it("a scrape that asks for gzip, as Prometheus does, gets the same text compressed; one that refuses it gets it plain", async () => {
    const raw = (encoding: string) =>
      new Promise<{ encoding?: string; vary?: string; body: Buffer }>((resolve, reject) =>
        request(
          `${s.url}/v1/metrics?tags=team`,
          { headers: { authorization: `Bearer ${s.apiKey}`, "accept-encoding": encoding } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () =>
              resolve({ encoding: res.headers["content-encoding"], vary: res.headers.vary, body: Buffer.concat(chunks) }),
            );
          },
        )
          .on("error", reject)
          .end(),
      );
    const zipped = await raw("gzip");
    const plain = await raw("gzip;q=0, identity");
    expect(zipped.encoding).toBe("gzip");
    expect(zipped.vary).toBe("accept-encoding");
    expect(plain.encoding).toBeUndefined();
    expect(zipped.body.length).toBeLessThan(plain.body.length);
    expect(gunzipSync(zipped.body).toString("utf8")).toBe(plain.body.toString("utf8"));
    expect(parse(plain.body.toString("utf8")).families.has("vigil_monitor_up")).toBe(true);
  });

  it("a deleted monitor's series are gone from the next scrape", async () => {
    const gone = (await s.call("POST", "/v1/monitors", monitorBody("gone", []))).body.id;
    await send(fra.serviceKey, gone, [[0, "success", 10]]);
    expect(value(parse((await scrape()).text).samples, "vigil_monitor_up", gone, "rack-fra")).toBe(1);
    expect((await s.call("DELETE", `/v1/monitors/${gone}`)).status).toBe(204);
    expect(pick(parse((await scrape()).text).samples, "vigil_monitor_up", gone, "rack-fra")).toEqual([]);
  });

  it("a scrape without a valid API key is refused with 401, and another workspace's key sees none of these monitors", async () => {
    expect((await scrape("", null)).status).toBe(401);
    expect((await scrape("", "vk_not-a-real-key")).status).toBe(401);
    const other = await startTestServer({}, s.database);
    try {
      const theirs = await scrape("", other.apiKey);
      expect(theirs.status).toBe(200);
      expect(theirs.text).not.toContain(`monitor_id="${api}"`);
      expect(theirs.text).not.toContain("rack-fra");
    } finally {
      await other.close();
    }
  });

  /** Another workspace on the same database with `count` monitors served by each of the named locations. */
  async function workspaceWith(count: number, locationNames: string[]) {
    const other = await startTestServer({}, s.database);
    const db = other.database.db;
    // One after the other: the scrape lists a monitor's locations by id.
    const locations: { id: number; name: string }[] = [];
    for (const n of locationNames)
      locations.push((await createPrivateLocation(db, other.workspaceId, { name: n, region: "ams" }, "operator")).location);
    const ids = (
      await db
        .insert(monitor)
        .values(
          Array.from({ length: count }, (_, i) => ({
            workspaceId: other.workspaceId,
            key: `m${i}`,
            name: `M${i}`,
            kind: "http" as const,
            frequency: "1m",
            regions: ["ams"],
            url: "http://127.0.0.1:9/",
            method: "GET",
          })),
        )
        .returning({ id: monitor.id })
    ).map((r) => r.id);
    for (const l of locations)
      await db.insert(monitorLocationStatus).values(
        ids.map((id) => ({
          monitorId: id,
          locationId: l.id,
          status: "success" as const,
          cronTimestamp: slot,
          resultId: `r${id}-${l.id}`,
          latencyMs: 5,
        })),
      );
    return { other, ids, locations };
  }

  it("a workspace with more monitors than the database answers in one piece lists each monitor and location once, in order", async () => {
    // The read packs a thousand monitors' series sets to a row: 1,201 monitors span two rows or more, in any order.
    const { other: big, ids, locations } = await workspaceWith(1201, ["big-a", "big-b"]);
    try {
      const ups = parse((await scrape("", big.apiKey)).text).samples.filter((x) => x.name === "vigil_monitor_up");
      const expected = ids.flatMap((id) => locations.map((l) => `${id} ${l.name}`));
      expect(ups.map((x) => `${x.labels.monitor_id} ${x.labels.location}`)).toEqual(expected);
      const infos = parse((await scrape("", big.apiKey)).text).samples.filter((x) => x.name === "vigil_monitor_info");
      expect(infos.map((x) => `${x.labels.monitor_id} ${x.labels.location}`)).toEqual(expected);
      expect(infos.every((x) => x.labels.monitor_name === `M${ids.indexOf(Number(x.labels.monitor_id))}`)).toBe(true);
    } finally {
      await big.close();
    }
  });

  it("a scraper that hangs up halfway through the answer leaves the server answering the next scrape whole", async () => {
    // 3,000 series sets: some 4 MiB of text, sent while it is written, so the hang-up comes mid-answer.
    const { other, ids } = await workspaceWith(1500, ["cut-a", "cut-b"]);
    try {
      for (const encoding of ["gzip", "identity"]) {
        const firstBytes = await new Promise<number>((resolve, reject) => {
          const req = request(
            `${s.url}/v1/metrics`,
            { headers: { authorization: `Bearer ${other.apiKey}`, "accept-encoding": encoding } },
            (res) => {
              expect(res.statusCode).toBe(200);
              res.once("data", (chunk: Buffer) => {
                req.destroy();
                resolve(chunk.length);
              });
            },
          );
          req.on("error", (err) => (req.destroyed ? undefined : reject(err)));
          req.end();
        });
        expect(firstBytes).toBeGreaterThan(0);
      }
      // Whole in both encodings, twice over (the second compressed scrape writes into buffers the first gave back).
      const whole = async (encoding: string) => {
        const res = await fetch(`${s.url}/v1/metrics`, {
          headers: { authorization: `Bearer ${other.apiKey}`, "accept-encoding": encoding },
        });
        expect(res.headers.get("content-encoding") ?? "identity").toBe(encoding);
        return res.text();
      };
      const plain = await whole("identity");
      const ups = parse(plain).samples.filter((x) => x.name === "vigil_monitor_up");
      expect(ups.length).toBe(ids.length * 2);
      expect(await whole("gzip")).toBe(plain);
      expect(await whole("gzip")).toBe(plain);
    } finally {
      await other.close();
    }
  });

  it("tag labels that Prometheus could not take are refused naming the field", async () => {
    const bad = await s.call("GET", "/v1/metrics?tags=team,9lives");
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues).toEqual([{ path: "tags", message: expect.stringContaining('"9lives"') }]);
    const many = await s.call("GET", `/v1/metrics?tags=${Array.from({ length: 11 }, (_, i) => `t${i}`).join(",")}`);
    expect(many.status).toBe(400);
    expect(many.body.error.issues[0]).toMatchObject({ path: "tags", message: "must name at most 10 tags" });
  });

  it("the Grafana dashboard in examples/grafana parses and every panel and variable queries a series the endpoint emits", async () => {
    const dashboard = JSON.parse(readFileSync(new URL("../../../examples/grafana/vigil-monitors.json", import.meta.url), "utf8")) as {
      panels: { title: string; targets: { expr: string; legendFormat?: string }[] }[];
      templating: { list: { name: string; query: { query: string } }[] };
    };
    // Each series name the endpoint emits, with the label names it carries.
    const carried = new Map<string, Set<string>>();
    for (const x of parse((await scrape()).text).samples)
      for (const l of Object.keys(x.labels)) carried.set(x.name, (carried.get(x.name) ?? new Set()).add(l));
    const info = carried.get("vigil_monitor_info")!;
    const queries = [
      ...dashboard.panels.flatMap((p) => p.targets.map((t) => [p.title, t.expr, t.legendFormat ?? ""] as const)),
      ...dashboard.templating.list.map((v) => [`$${v.name}`, v.query.query, ""] as const),
    ];
    expect(dashboard.panels.length).toBeGreaterThan(5);
    for (const [where, expr, legend] of queries) {
      const names = [...expr.matchAll(/\bvigil_[a-z_]+/g)].map((m) => m[0]);
      expect(names.length, where).toBeGreaterThan(0);
      for (const n of names) expect(carried.has(n), `${where}: ${n}`).toBe(true);
      // A selector may match only labels its series carries: one filtering by name must do so on the info series.
      for (const [, name, matchers] of expr.matchAll(/\b(vigil_[a-z_]+)\s*\{([^}]*)\}/g))
        for (const [, label] of matchers!.matchAll(/([a-zA-Z_]\w*)\s*(?:=~|!~|!=|=)/g))
          expect(carried.get(name!)?.has(label!), `${where}: ${name} has no label ${label}`).toBe(true);
      for (const [, labels] of expr.matchAll(/group_left\s*\(([^)]*)\)/g))
        for (const l of labels!.split(",").map((x) => x.trim()))
          expect(info.has(l), `${where}: group_left(${l}) is not a label of vigil_monitor_info`).toBe(true);
      // Names, kinds and regions reach other series only through a join with the info series.
      const described = ["monitor_name", "kind", "region"].filter((l) => `${expr} ${legend}`.includes(l));
      if (described.length && names.some((n) => n !== "vigil_monitor_info"))
        for (const l of described) expect(expr, `${where}: ${l} without a join`).toMatch(new RegExp(`group_left\\s*\\([^)]*\\b${l}\\b`));
    }
  });
});
