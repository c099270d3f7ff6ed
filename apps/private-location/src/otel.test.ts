import { HttpCheck, type ProbeMonitor } from "@vigil/api-contract";
import { EgressPolicy } from "@vigil/egress";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { OtelExport } from "./otel";
import { attributesOf as attrs, metricsIn, type OtlpPoint, otlpCollector, tcpProbeMonitor, waitFor } from "./test-harness";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

const tcp = (id: number, otel: ProbeMonitor["openTelemetry"]): ProbeMonitor =>
  tcpProbeMonitor(id, `db ${id}`, 5432, { openTelemetry: otel });

describe("OTLP export", () => {
  it("exports duration and count with the monitor's attributes and headers, one exporter per endpoint and header set", async () => {
    const collector = await otlpCollector();
    closers.push(collector.close);
    const otel = new OtelExport({ intervalMs: 200, logger: pino({ level: "silent" }), egress: EgressPolicy.none });
    closers.push(() => otel.shutdown());
    otel.setRegion("iad");
    const endpoint = `${collector.url}/v1/metrics`;
    const a = tcp(1, { endpoint, headers: { Authorization: "Bearer team-a" } });
    const b = tcp(2, { endpoint, headers: { Authorization: "Bearer team-a" } });
    const c: ProbeMonitor = {
      ...tcp(3, { endpoint, headers: { Authorization: "Bearer team-c" } }),
      name: "site",
      check: HttpCheck.parse({ kind: "http", url: "http://user:secret@127.0.0.1:8080/health?x=1", method: "GET" }),
    };
    await otel.sync([a, b, c, tcp(4, null)]);
    expect(otel.exporters).toBe(2);
    otel.record(a, { status: "success", latencyMs: 12, attempts: 1 });
    otel.record(b, { status: "error", latencyMs: 3000, attempts: 4, errorMessage: "refused" });
    otel.record(c, { status: "degraded", latencyMs: 900, attempts: 1, statusCode: 200 });

    await waitFor(
      "exports with both header sets",
      () => new Set(collector.received.map((r) => r.headers.authorization)).size === 2,
      10_000,
      50,
    );
    const fromA = collector.received.filter((r) => r.headers.authorization === "Bearer team-a");
    expect(fromA[0]!.path).toBe("/v1/metrics");
    expect(fromA[0]!.headers["content-type"]).toMatch(/json/);
    const metrics = metricsIn(fromA);
    const duration = metrics.find((m) => m.name === "vigil.check.duration")!;
    expect(duration.unit).toBe("s");
    const points = duration.histogram!.dataPoints;
    const byMonitor = new Map<string, OtlpPoint>(points.map((p) => [attrs(p)["vigil.monitor.id"]!, p]));
    expect(attrs(byMonitor.get("1")!)).toMatchObject({
      "vigil.monitor.name": "db 1",
      "vigil.check.kind": "tcp",
      "vigil.check.status": "success",
      "cloud.region": "iad",
      "server.address": "127.0.0.1",
      "server.port": "5432",
    });
    expect(byMonitor.get("2")!.sum).toBe(3);
    const count = metrics.find((m) => m.name === "vigil.checks")!;
    expect(count.sum!.dataPoints.map((p) => [attrs(p)["vigil.check.status"], Number(p.asInt)]).sort()).toEqual([
      ["error", 1],
      ["success", 1],
    ]);
    // Team c's exporter got only its own monitor, with the URL's credentials redacted.
    const fromC = metricsIn(collector.received.filter((r) => r.headers.authorization === "Bearer team-c"));
    const cPoint = attrs(fromC.find((m) => m.name === "vigil.check.duration")!.histogram!.dataPoints[0]!);
    expect(cPoint).toMatchObject({
      "vigil.monitor.id": "3",
      "url.full": "http://REDACTED:REDACTED@127.0.0.1:8080/health?x=1",
      "http.request.method": "GET",
      "http.response.status_code": "200",
      "vigil.check.status": "degraded",
    });
  });

  it("shuts an exporter down once no monitor uses its endpoint", async () => {
    const collector = await otlpCollector();
    closers.push(collector.close);
    const otel = new OtelExport({ intervalMs: 60_000, logger: pino({ level: "silent" }), egress: EgressPolicy.none });
    closers.push(() => otel.shutdown());
    const m = tcp(1, { endpoint: `${collector.url}/v1/metrics`, headers: {} });
    await otel.sync([m]);
    otel.record(m, { status: "success", latencyMs: 5, attempts: 1 });
    await otel.sync([tcp(1, null)]);
    expect(otel.exporters).toBe(0);
    // The last export happens on shutdown, long before the 60 s interval.
    await waitFor("the final export", () => collector.received.length > 0, 5_000, 50);
    expect(metricsIn(collector.received).map((x) => x.name)).toContain("vigil.check.duration");
  });

  it("an endpoint on a denied port gets no export, and the refusal is logged", async () => {
    const collector = await otlpCollector();
    closers.push(collector.close);
    const lines: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => lines.push(line) });
    const egress = await EgressPolicy.create({ instance: [{ name: "database", url: collector.url }] });
    const otel = new OtelExport({ intervalMs: 60_000, logger, egress });
    const endpoint = `${collector.url}/v1/metrics`.replace("127.0.0.1", "localhost");
    const m = tcp(1, { endpoint, headers: {} });
    await otel.sync([m]);
    otel.record(m, { status: "success", latencyMs: 5, attempts: 1 });
    await otel.shutdown();
    expect(collector.received).toEqual([]);
    expect(lines.join("\n")).toContain("is this instance's database; refused");
  });
});
