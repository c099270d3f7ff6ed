import { type Monitor, MonitorInput, REDACTED } from "@vigil/api-contract";
import { describe, expect, it } from "vitest";
import { draftOf, emptyDraft, jsonRpcPreset } from "./draft";
import { storedMonitorBase } from "./fixtures";
import { fieldOf, inputOf, withoutSecrets } from "./input";
import { draftFromForm } from "./posted";

const stored: Monitor = {
  ...storedMonitorBase(),
  id: 7,
  key: "api",
  name: "API",
  tags: ["prod"],
  failureThreshold: 1,
  successThreshold: 1,
  timeout: 45_000,
  degradedAfter: 800,
  openTelemetry: { endpoint: "http://otel:4318/v1/metrics", headers: { Authorization: REDACTED } },
  channels: ["ops"],
  kind: "http",
  request: {
    url: "https://example.com/health",
    method: "GET",
    headers: { Authorization: REDACTED, "X-Tenant": REDACTED, Accept: "application/json" },
    secretHeaders: ["X-Tenant"],
    followRedirects: true,
  },
  assertions: [
    { kind: "statusCode", compare: "eq", target: 200 },
    { kind: "jsonBody", path: "$.ok", compare: "eq", target: true },
  ],
};

/** What the browser would post for a draft: the same names the form renders. */
function post(d: ReturnType<typeof draftOf>): FormData {
  const f = new FormData();
  const on = (name: string, v: boolean) => v && f.set(name, "on");
  f.set("kind", d.kind);
  for (const k of [
    "name",
    "key",
    "description",
    "tags",
    "url",
    "method",
    "body",
    "host",
    "port",
    "frequency",
    "timeout",
    "degradedAfter",
    "retry",
  ] as const)
    f.set(k, d[k]);
  f.set("otelEndpoint", d.otelEndpoint);
  on("followRedirects", d.followRedirects);
  on("active", d.active);
  for (const r of d.regions) f.append("regions", r);
  for (const c of d.channels) f.append("channels", c);
  // Row indexes with gaps, as after removing rows in the browser.
  d.headers.forEach((h, i) => {
    f.set(`header.${i * 2}.name`, h.name);
    f.set(`header.${i * 2}.value`, h.value);
    on(`header.${i * 2}.secret`, h.secret);
    if (h.stored) f.set(`header.${i * 2}.stored`, "1");
  });
  d.otelHeaders.forEach((h, i) => {
    f.set(`otelHeader.${i}.name`, h.name);
    f.set(`otelHeader.${i}.value`, h.value);
    if (h.stored) f.set(`otelHeader.${i}.stored`, "1");
  });
  d.assertions.forEach((a, i) => {
    for (const k of ["kind", "compare", "target", "key", "path"] as const) f.set(`assertion.${i + 3}.${k}`, a[k]);
  });
  return f;
}

describe("monitor form model", () => {
  it("an edited monitor posted untouched gives back the same monitor, with stored secrets kept as *** and never shown", () => {
    const draft = draftOf(stored);
    expect(draft.headers.map((h) => [h.name, h.value, h.stored])).toEqual([
      ["Authorization", "", true],
      ["X-Tenant", "", true],
      ["Accept", "application/json", false],
    ]);
    expect(draft.timeout).toBe("45s");
    expect(draft.degradedAfter).toBe("800ms");
    const input = MonitorInput.parse(inputOf(draftFromForm(post(draft))));
    expect(input).toMatchObject({
      kind: "http",
      key: "api",
      frequency: "1m",
      regions: ["iad"],
      timeout: 45_000,
      degradedAfter: 800,
      channels: ["ops"],
      openTelemetry: { endpoint: "http://otel:4318/v1/metrics", headers: { Authorization: REDACTED } },
      request: { headers: { Authorization: REDACTED, "X-Tenant": REDACTED, Accept: "application/json" }, secretHeaders: ["X-Tenant"] },
      assertions: stored.kind === "http" ? stored.assertions : [],
    });
  });

  it("a refused form comes back without any secret value the user typed", () => {
    const d = { ...emptyDraft("1m", ["iad"]), url: "https://x.test" };
    d.headers = [
      { name: "Authorization", value: "Bearer typed", secret: false, stored: false },
      { name: "X-Custom", value: "mine", secret: true, stored: false },
      { name: "Accept", value: "text/plain", secret: false, stored: false },
    ];
    d.otelHeaders = [{ name: "X-Scope", value: "tenant", secret: false, stored: false }];
    const back = withoutSecrets(d);
    expect(back.headers.map((h) => h.value)).toEqual(["", "", "text/plain"]);
    expect(back.otelHeaders[0]!.value).toBe("");
  });

  it("the JSON-RPC preset is a POST of the spec's ping with JSON in, JSON or event-stream out, and the empty result asserted", () => {
    const input = MonitorInput.parse(inputOf(jsonRpcPreset({ ...emptyDraft("1m", ["iad"]), url: "https://rpc.test/mcp" })));
    expect(input).toMatchObject({
      request: {
        method: "POST",
        body: '{"jsonrpc":"2.0","id":"1","method":"ping"}',
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      },
      assertions: [
        { kind: "statusCode", compare: "eq", target: 200 },
        { kind: "textBody", compare: "eq", target: '{"result":{},"jsonrpc":"2.0","id":"1"}' },
      ],
    });
  });

  it("JSON body targets keep their JSON type; quoted text stays text", () => {
    const d = { ...emptyDraft("1m", ["iad"]), url: "https://x.test" };
    d.assertions = ["42", "true", "null", '"200"', "ok"].map((target) => ({
      kind: "jsonBody",
      compare: "eq",
      target,
      key: "",
      path: "$.a",
      property: "expiresIn",
      severity: "error",
    }));
    const input = MonitorInput.parse(inputOf(d));
    expect(input.kind === "http" && input.assertions.map((a) => ("target" in a ? a.target : undefined))).toEqual([
      42,
      true,
      null,
      "200",
      "ok",
    ]);
  });

  it("a TCP draft becomes host and port with the 45 s timeout and 3 retries by default; a bad port is named on its field", () => {
    const d = { ...emptyDraft("1m", ["iad"]), kind: "tcp" as const, host: "db.internal", port: "5432" };
    expect(MonitorInput.parse(inputOf(d))).toMatchObject({
      kind: "tcp",
      request: { host: "db.internal", port: 5432 },
      timeout: 45_000,
      retry: 3,
      failureThreshold: 1,
      successThreshold: 1,
    });
    const bad = MonitorInput.safeParse(inputOf({ ...d, port: "70000" }));
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => fieldOf(i.path.join(".")))).toEqual(["port"]);
  });

  it("tags typed with commas or spaces become a list without repeats; a tag with a space-less bad character is named on the tags field", () => {
    const d = { ...emptyDraft("1m", ["iad"]), url: "https://example.com", tags: "prod, team:payments  prod,," };
    expect(MonitorInput.parse(inputOf(d)).tags).toEqual(["prod", "team:payments"]);
    const bad = MonitorInput.safeParse(inputOf({ ...d, tags: "prod, #oncall" }));
    expect(bad.error?.issues.map((i) => [fieldOf(i.path.join(".")), i.message])).toEqual([
      ["tags", "must be letters, digits and . _ : / - (no spaces), starting with a letter or digit"],
    ]);
  });

  it("a heartbeat draft is a period or a cron schedule with grace, without frequency, locations or retries; a bad cron is named on its field", () => {
    const d = { ...emptyDraft("1m", ["iad"]), kind: "heartbeat" as const, name: "Backup", period: "1d", grace: "1h" };
    expect(MonitorInput.parse(inputOf(d))).toMatchObject({
      kind: "heartbeat",
      request: { period: 86_400_000, grace: 3_600_000 },
      regions: [],
    });
    const cron = { ...d, hbMode: "cron" as const, cron: "30 2 * * *", timezone: "Europe/Berlin", grace: "15m" };
    const parsed = MonitorInput.parse(inputOf(cron));
    expect(parsed).toMatchObject({ request: { cron: "30 2 * * *", timezone: "Europe/Berlin", grace: 900_000 } });
    const back = draftOf({ ...stored, ...parsed, id: 8 } as Monitor);
    expect([back.hbMode, back.cron, back.timezone, back.grace]).toEqual(["cron", "30 2 * * *", "Europe/Berlin", "15m"]);
    const form = post(back);
    for (const k of ["hbMode", "period", "cron", "timezone", "grace"] as const) form.set(k, back[k]);
    expect(MonitorInput.parse(inputOf(draftFromForm(form)))).toMatchObject({ kind: "heartbeat", request: parsed.request });
    const bad = MonitorInput.safeParse(inputOf({ ...cron, cron: "61 * * * *", timezone: "Mars/Olympus" }));
    expect(bad.error?.issues.map((i) => fieldOf(i.path.join(".")))).toEqual(["timezone"]);
    const badCron = MonitorInput.safeParse(inputOf({ ...cron, cron: "* * *" }));
    expect(badCron.error?.issues.map((i) => [fieldOf(i.path.join(".")), i.message])).toEqual([
      ["cron", "is not a valid cron expression: must have 5 fields (minute hour day month weekday), got 3"],
    ]);
    const short = MonitorInput.safeParse(inputOf({ ...d, period: "10ms" }));
    expect(short.error?.issues.map((i) => [fieldOf(i.path.join(".")), i.message])).toEqual([["period", "must be between 1s and 31d"]]);
  });

  it("schema issues land on the field that holds the value", () => {
    expect(fieldOf("request.url")).toBe("url");
    expect(fieldOf("request.port")).toBe("port");
    expect(fieldOf("request.headers.X Bad")).toBe("headers");
    expect(fieldOf("assertions.2.target")).toBe("assertion.2.target");
    expect(fieldOf("openTelemetry.endpoint")).toBe("otelEndpoint");
    expect(fieldOf("regions.1")).toBe("regions");
    expect(fieldOf("frequency")).toBe("frequency");
  });
});
