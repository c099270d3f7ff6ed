import { CHECK_KINDS } from "@vigil/api-contract";
import { describe, expect, it } from "vitest";
import { parseMonitorsYaml } from "./index";

/** Messages for a file, or [] when it is valid. */
function messages(text: string): string[] {
  const r = parseMonitorsYaml(text, "monitors.yaml");
  return r.ok ? [] : r.errors.map((e) => e.message);
}

// Line numbers in the expectations below refer to this layout.
const http = (fields: string) => `api-health:
  name: API health
  kind: http
  frequency: 1m
  regions: [ams, iad]
${fields}`;
const req = "  request: { url: https://example.com/health }\n";

describe("error messages name file, line, column, key and rule", () => {
  it("a frequency outside the allowed list", () => {
    expect(messages(http(req).replace("frequency: 1m", "frequency: 2m"))).toEqual([
      'monitors.yaml:4:14 api-health.frequency must be one of 30s, 1m, 5m, 10m, 30m, 1h (got "2m")',
    ]);
  });

  it("an unknown region", () => {
    expect(messages(http(req).replace("[ams, iad]", "[ams, xyz]"))).toEqual([
      'monitors.yaml:5:18 api-health.regions[1] must be a region id such as jnb, hkg, ams, iad, gru, syd (got "xyz")',
    ]);
  });

  it("an HTTP monitor without request.url points at request", () => {
    expect(messages(http("  request:\n    method: GET\n"))).toEqual(["monitors.yaml:6:3 api-health.request.url is required"]);
  });

  it("a value of the wrong type", () => {
    expect(messages(http(`${req}  retry: three\n  active: "yes"\n`))).toEqual([
      'monitors.yaml:7:10 api-health.retry must be a number (got "three")',
      'monitors.yaml:8:11 api-health.active must be true or false (got "yes")',
    ]);
  });

  it("an unknown key, with the likely intended one", () => {
    expect(messages(http(`${req}  regoins: [ams]\n  colour: red\n`))).toEqual([
      'monitors.yaml:7:3 api-health.regoins is an unknown key (did you mean "regions"?)',
      "monitors.yaml:8:3 api-health.colour is an unknown key (allowed: name, description, tags, frequency, active, public, regions, retry, failureThreshold, successThreshold, timeout, degradedAfter, openTelemetry, channels, remindEvery, escalationPolicy, dependsOn, kind, request, assertions)",
    ]);
  });

  it("an unknown key inside request or an assertion", () => {
    const text = http(
      `  request: { url: https://example.com, methd: POST }\n  assertions:\n    - { kind: statusCode, compare: eq, target: 200, extra: 1 }\n`,
    );
    expect(messages(text)).toEqual([
      'monitors.yaml:6:40 api-health.request.methd is an unknown key (did you mean "method"?)',
      "monitors.yaml:8:53 api-health.assertions[0].extra is an unknown key (allowed: kind, compare, target)",
    ]);
  });

  it("a duration that is neither milliseconds nor a duration string", () => {
    expect(messages(http(`${req}  timeout: 10 seconds\n  degradedAfter: -5\n`))).toEqual([
      'monitors.yaml:7:12 api-health.timeout must be milliseconds or a duration such as "800ms", "45s" or "1m" (got "10 seconds")',
      "monitors.yaml:8:18 api-health.degradedAfter must be a positive whole number of milliseconds (got -5)",
    ]);
  });

  it("a timeout above the maximum", () => {
    expect(messages(http(`${req}  timeout: 5m\n`))).toEqual(['monitors.yaml:7:12 api-health.timeout must be at most 120s (got "5m")']);
  });

  it("a YAML syntax error carries js-yaml's line and column", () => {
    expect(messages(http(`  request: { url: https://example.com\n  retry: 2\n`))).toEqual([
      "monitors.yaml:7:3 invalid YAML: deficient indentation",
    ]);
    expect(messages("api-health:\n  name: a\n   kind: http\n")).toEqual([
      "monitors.yaml:3:8 invalid YAML: bad indentation of a mapping entry",
    ]);
  });

  it("a duplicate entry key and a duplicate field", () => {
    const text = `${http(req)}  name: Again\napi-health:\n  kind: tcp\n  frequency: 1m\n  regions: [ams]\n  request: { host: db, port: 5432 }\n`;
    expect(messages(text)).toEqual([
      "monitors.yaml:7:3 api-health.name is a duplicate key (first defined at line 2)",
      "monitors.yaml:8:1 api-health is a duplicate key (first defined at line 1)",
    ]);
  });

  it("an empty file, a file of comments, and a file that is not a map", () => {
    const empty = ["monitors.yaml:1:1 the file is empty: expected a map of entry key → monitor fields"];
    expect(messages("")).toEqual(empty);
    expect(messages("# nothing yet\n\n")).toEqual(empty);
    expect(messages("- api-health\n- db\n")).toEqual([
      "monitors.yaml:1:1 the top level must be a map of entry key → monitor fields (got a list)",
    ]);
    expect(messages("a: 1\n---\nb: 2\n")).toEqual(["monitors.yaml:3:1 the file must hold one YAML document (found 2)"]);
  });

  it("an entry that is not a map of fields", () => {
    expect(messages("api-health:\ndb: postgres\n")).toEqual([
      "monitors.yaml:1:1 api-health must be a map of monitor fields (got an empty value)",
      'monitors.yaml:2:5 db must be a map of monitor fields (got "postgres")',
    ]);
  });

  it("an assertion of an unknown kind, or without one", () => {
    const text = http(`${req}  assertions:\n    - { kind: status, compare: eq, target: 200 }\n    - compare: eq\n      target: 200\n`);
    expect(messages(text)).toEqual([
      'monitors.yaml:8:15 api-health.assertions[0].kind must be one of statusCode, textBody, header, jsonBody, latency, certificate (got "status")',
      "monitors.yaml:9:7 api-health.assertions[1].kind must be one of statusCode, textBody, header, jsonBody, latency, certificate (got nothing)",
    ]);
  });

  it("a request.url that is not a URL", () => {
    expect(messages(http("  request: { url: not a url }\n"))).toEqual([
      'monitors.yaml:6:19 api-health.request.url must be a target URL (got "not a url")',
    ]);
  });

  it("a TCP port out of range", () => {
    const text = "postgres:\n  kind: tcp\n  frequency: 30s\n  regions: [iad]\n  request:\n    host: db.internal\n    port: 70000\n";
    expect(messages(text)).toEqual(["monitors.yaml:7:11 postgres.request.port must be 1-65535 (got 70000)"]);
  });

  it("an OTLP endpoint that is not HTTP", () => {
    const text = http(`${req}  openTelemetry:\n    endpoint: grpc://otel:4317\n`);
    expect(messages(text)).toEqual([
      'monitors.yaml:8:15 api-health.openTelemetry.endpoint must be an http:// or https:// OTLP/HTTP URL (got "grpc://otel:4317")',
    ]);
  });

  it("a bad kind, a bad entry key and a bad header name", () => {
    expect(messages("my api!:\n  kind: udp\n  frequency: 1m\n  regions: [ams]\n")).toEqual([
      `monitors.yaml:2:9 "my api!".kind must be one of ${CHECK_KINDS.join(", ")} (got "udp")`,
    ]);
    // OpenStatus' own files use keys with spaces; those load. Leading spaces and control characters do not.
    expect(messages(`${http(req).replace("api-health", "api health")}`)).toEqual([]);
    expect(messages(`${http(req).replace("api-health", '" api"')}`)).toEqual([
      'monitors.yaml:1:1 " api" is not a valid entry key: it must not start or end with a space or hold control characters',
    ]);
    expect(messages(http('  request: { url: "https://x.io", headers: { "X Bad": "1" } }\n'))).toEqual([
      'monitors.yaml:6:46 api-health.request.headers["X Bad"] must be a valid HTTP header name',
    ]);
  });

  it("a `key` field is refused: the entry key is the key", () => {
    expect(messages(http(`${req}  key: other\n`))).toEqual([
      'monitors.yaml:7:3 api-health.key is not allowed: the entry key ("api-health") is the monitor\'s key',
    ]);
  });

  it("every problem in the file is reported at once, in file order", () => {
    const text = `${http(req).replace("frequency: 1m", "frequency: 2h")}db:\n  kind: tcp\n  frequency: 1m\n  regions: []\n  request: { host: "bad host", port: 0 }\n`;
    expect(messages(text)).toEqual([
      'monitors.yaml:4:14 api-health.frequency must be one of 30s, 1m, 5m, 10m, 30m, 1h (got "2h")',
      "monitors.yaml:10:12 db.regions must list at least one region",
      'monitors.yaml:11:20 db.request.host must be a hostname or an IP address (got "bad host")',
      "monitors.yaml:11:38 db.request.port must be 1-65535 (got 0)",
    ]);
  });

  it("errors carry structured fields as well as the printed line", () => {
    const r = parseMonitorsYaml(http(req).replace("frequency: 1m", "frequency: 2m"), "conf/m.yaml");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]).toMatchObject({ file: "conf/m.yaml", line: 4, column: 14, path: "api-health.frequency" });
  });
});

describe("a valid file", () => {
  it("infers kind from request, takes durations as ms or strings, and keeps the entry key", () => {
    const r = parseMonitorsYaml(
      "web:\n  frequency: 5m\n  regions: [ams]\n  timeout: 10s\n  degradedAfter: 800\n  request: { url: https://example.com }\ndb:\n  frequency: 30s\n  regions: [iad]\n  timeout: 1.5s\n  request: { host: db.internal, port: 5432 }\n",
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.monitors.map((m) => [m.key, m.kind, m.timeout, m.degradedAfter])).toEqual([
      ["web", "http", 10_000, 800],
      ["db", "tcp", 1_500, undefined],
    ]);
  });

  it("merge keys share settings between entries", () => {
    const r = parseMonitorsYaml(
      "web: &base\n  frequency: 5m\n  regions: [ams]\n  request: { url: https://example.com }\nweb-2:\n  <<: *base\n  name: Second\n",
    );
    expect(r.ok && r.monitors.map((m) => [m.key, m.name, m.frequency])).toEqual([
      ["web", undefined, "5m"],
      ["web-2", "Second", "5m"],
    ]);
  });

  it("errorAt points a later (server) problem at the entry's field", () => {
    const r = parseMonitorsYaml(`${http(req)}db:\n  kind: tcp\n  frequency: 1m\n  regions: [ams]\n  request: { host: db, port: 5432 }\n`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.errorAt(1, ["request", "port"], "is not reachable").message).toBe("monitors.yaml:11:30 db.request.port is not reachable");
    expect(r.errorAt(0, ["channels"], "names an unknown channel").message).toBe(
      "monitors.yaml:1:1 api-health.channels names an unknown channel",
    );
  });
});

describe("database connection strings in files", () => {
  it("a bad one is named with its rule but never echoed", () => {
    const out = parseMonitorsYaml(
      "db:\n  kind: mysql\n  frequency: 1m\n  regions: [iad]\n  request: { connection: 'server=db;password=hunter2' }\n",
    );
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.errors.map((e) => e.rule).join()).toMatch(/^must be a connection URL such as mysql:\/\//);
    expect(JSON.stringify(out.errors)).not.toContain("hunter2");
  });
});
