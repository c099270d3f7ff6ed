import { FREQUENCIES, type Monitor, MonitorInput, REGIONS } from "@vigil/api-contract";
import { describe, expect, it } from "vitest";
import { monitorsJsonSchema, parseMonitorsYaml, SCHEMA_COMMENT, serializeMonitorsYaml } from "./index";
import { prng } from "./testing/mutate";

function load(text: string): MonitorInput[] {
  const r = parseMonitorsYaml(text, "monitors.yaml");
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
  return r.monitors;
}

// Written the way OpenStatus' CLI writes and documents its files: quoted strings, durations in ms.
const OPENSTATUS_FILE = `# yaml-language-server: $schema=https://www.openstatus.dev/schema.json

"openstatus":
  active: true
  description: "Our website \\U0001F310"
  frequency: 10m
  kind: http
  name: 'OpenStatus '
  public: true
  regions:
  - ams
  - iad
  - jnb
  request:
    method: GET
    url: https://www.openstatus.dev
    headers:
      User-Agent: OpenStatus
  retry: 3
  degradedAfter: 30000
  timeout: 45000
  assertions:
    - kind: statusCode
      compare: eq
      target: 200
    - kind: header
      compare: contains
      key: content-type
      target: text/html
    - kind: textBody
      compare: contains
      target: OpenStatus
monitor-tcp:
  name: "Database"
  description: "Postgres reachability"
  frequency: "1m"
  active: false
  regions: ["iad", "ams"]
  retry: 0
  kind: tcp
  timeout: 10000
  degradedAfter: 2000
  request:
    host: db.example.com
    port: 5432
  openTelemetry:
    endpoint: https://otlp.example.com/v1/metrics
    headers:
      Authorization: Bearer <ACCESS_TOKEN>
`;

describe("OpenStatus files", () => {
  it("load unchanged: HTTP and TCP entries, millisecond durations, assertions", () => {
    const [web, db] = load(OPENSTATUS_FILE);
    expect(web).toMatchObject({
      key: "openstatus",
      name: "OpenStatus ",
      description: "Our website 🌐",
      kind: "http",
      frequency: "10m",
      public: true,
      regions: ["ams", "iad", "jnb"],
      timeout: 45_000,
      degradedAfter: 30_000,
      request: { url: "https://www.openstatus.dev", method: "GET", headers: { "User-Agent": "OpenStatus" } },
      assertions: [
        { kind: "statusCode", compare: "eq", target: 200 },
        { kind: "header", compare: "contains", key: "content-type", target: "text/html" },
        { kind: "textBody", compare: "contains", target: "OpenStatus" },
      ],
    });
    expect(db).toMatchObject({
      key: "monitor-tcp",
      kind: "tcp",
      active: false,
      retry: 0,
      failureThreshold: 1,
      successThreshold: 1,
      timeout: 10_000,
      degradedAfter: 2_000,
      request: { host: "db.example.com", port: 5432 },
      openTelemetry: { endpoint: "https://otlp.example.com/v1/metrics", headers: { Authorization: "Bearer <ACCESS_TOKEN>" } },
    });
  });

  it("round-trip through serialize and parse", () => {
    const monitors = load(OPENSTATUS_FILE);
    const text = serializeMonitorsYaml(monitors);
    expect(load(text)).toEqual(monitors);
  });
});

/** What the API returns for every field a stored monitor left at the server's default. */
const STORED_DEFAULTS = {
  key: null,
  description: "",
  tags: [],
  active: true,
  public: false,
  retry: 3,
  failureThreshold: 1,
  successThreshold: 1,
  timeout: 45_000,
  degradedAfter: null,
  openTelemetry: null,
  channels: [],
  status: "active",
  health: "ok",
  createdAt: 1,
  updatedAt: 2,
} satisfies Partial<Monitor>;

describe("serializeMonitorsYaml", () => {
  const stored: Monitor[] = [
    {
      ...STORED_DEFAULTS,
      id: 7,
      name: "Checkout API",
      tags: ["prod", "team:checkout"],
      frequency: "5m",
      regions: ["ams"],
      channels: ["ops"],
      kind: "http",
      request: { url: "https://shop.example/checkout", method: "POST", headers: {}, body: '{"ping":true}', followRedirects: false },
      assertions: [{ kind: "latency", compare: "lt", target: 500 }],
    },
    {
      id: 8,
      key: null,
      name: "Checkout API",
      description: "same name",
      tags: [],
      frequency: "1h",
      active: false,
      public: true,
      regions: ["iad", "private"],
      retry: 0,
      failureThreshold: 1,
      successThreshold: 1,
      timeout: 2_000,
      degradedAfter: 1_000,
      openTelemetry: { endpoint: "http://otel:4318/v1/metrics", headers: { Authorization: "***" } },
      channels: [],
      status: "error",
      health: "paused",
      createdAt: 1,
      updatedAt: 2,
      kind: "tcp",
      request: { host: "::1", port: 6379 },
    },
    {
      ...STORED_DEFAULTS,
      id: 9,
      name: "",
      frequency: "30s",
      regions: ["syd"],
      kind: "tcp",
      request: { host: "10.0.0.1", port: 22 },
    },
  ];

  it("writes what `vigil import` prints: schema comment, keys from names or ids, no defaults, ms durations", () => {
    expect(serializeMonitorsYaml(stored)).toBe(`${SCHEMA_COMMENT}
checkout-api:
  name: Checkout API
  tags: [prod, team:checkout]
  kind: http
  frequency: 5m
  regions: [ams]
  request:
    url: https://shop.example/checkout
    method: POST
    body: '{"ping":true}'
    followRedirects: false
  assertions:
    - {kind: latency, compare: lt, target: 500}
  channels: [ops]

checkout-api-2:
  name: Checkout API
  description: same name
  kind: tcp
  frequency: 1h
  active: false
  public: true
  regions: [iad, private]
  retry: 0
  timeout: 2000
  degradedAfter: 1000
  request:
    host: ::1
    port: 6379
  openTelemetry:
    endpoint: http://otel:4318/v1/metrics
    headers:
      Authorization: \${CHECKOUT_API_2_OTLP_AUTHORIZATION}

monitor-9:
  kind: tcp
  frequency: 30s
  regions: [syd]
  request:
    host: 10.0.0.1
    port: 22
`);
  });

  it("stored monitors come back as the same inputs, redacted secrets as placeholders filled from the environment", () => {
    const text = serializeMonitorsYaml(stored);
    expect(text).not.toContain("***");
    const parsed = parseMonitorsYaml(text, "m.yaml", { env: { CHECKOUT_API_2_OTLP_AUTHORIZATION: "***" } });
    if (!parsed.ok) throw new Error(parsed.errors.map((e) => e.message).join("\n"));
    const back = parsed.monitors;
    const expected = stored.map(
      ({ id, status, health, createdAt, updatedAt, key, degradedAfter, openTelemetry, channels, name, ...rest }, i) =>
        MonitorInput.parse({
          ...rest,
          key: ["checkout-api", "checkout-api-2", "monitor-9"][i],
          ...(name ? { name } : {}),
          ...(degradedAfter !== null ? { degradedAfter } : {}),
          ...(openTelemetry ? { openTelemetry } : {}),
          ...(channels.length > 0 ? { channels } : {}),
        }),
    );
    expect(back).toEqual(expected);
  });

  it("keeps explicit keys and never gives two entries the same key", () => {
    const text = serializeMonitorsYaml([
      { ...stored[2]!, key: "monitor-9-2" },
      { ...stored[2]!, key: null },
      { ...stored[2]!, key: null },
    ] as Monitor[]);
    expect(load(text).map((m) => m.key)).toEqual(["monitor-9-2", "monitor-9", "monitor-9-3"]);
  });

  it("500 random monitors survive serialize → parse unchanged", () => {
    const rand = prng(20240601);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
    const tricky = [
      "plain",
      "a: b",
      "#hash",
      "yes",
      "no",
      "null",
      "123",
      "1e3",
      "- dash",
      "émoji 🚀",
      "multi\nline",
      " padded ",
      "'q'",
      '"dq"',
      "",
      "@at",
      "`tick`",
      "{x}",
      "[y]",
      "~",
    ];
    for (let n = 0; n < 500; n++) {
      const common = {
        key: `k${n}${pick(["", ".a", "_b", "-c"])}`,
        name: rand() < 0.8 ? pick(tricky) : undefined,
        description: pick(tricky),
        frequency: pick(FREQUENCIES),
        active: rand() < 0.5,
        public: rand() < 0.5,
        regions: [pick(REGIONS), pick(REGIONS)],
        retry: Math.floor(rand() * 11),
        failureThreshold: 1,
        successThreshold: 1,
        timeout: 1 + Math.floor(rand() * 120_000),
        degradedAfter: rand() < 0.5 ? 1 + Math.floor(rand() * 120_000) : undefined,
        openTelemetry:
          rand() < 0.3
            ? {
                endpoint: "https://otel.example/v1/metrics",
                headers: rand() < 0.5 ? { "X-Tenant": pick(tricky.filter((t) => !t.includes("\n"))) } : {},
              }
            : undefined,
        channels: rand() < 0.3 ? [pick(["ops", "on call", "123"])] : undefined,
      };
      const input =
        rand() < 0.5
          ? {
              ...common,
              kind: "http",
              request: {
                url: pick(["https://a.example/x?y=1&z=2", "http://127.0.0.1:8080/", "https://b.example/#frag"]),
                method: pick(["GET", "post", "HEAD"]),
                headers: rand() < 0.5 ? { Accept: pick(tricky.filter((t) => !t.includes("\n"))) } : {},
                body: rand() < 0.3 ? pick(tricky) : undefined,
                followRedirects: rand() < 0.5,
              },
              assertions: [
                { kind: "statusCode", compare: "eq", target: 200 + Math.floor(rand() * 300) },
                { kind: "textBody", compare: "contains", target: pick(tricky) },
                { kind: "jsonBody", path: "$.a", compare: "eq", target: pick([pick(tricky), 1.5, true, null]) },
                { kind: "header", key: "x-y", compare: "not_empty", target: pick(tricky) },
              ].slice(0, Math.floor(rand() * 5)),
            }
          : {
              ...common,
              kind: "tcp",
              request: { host: pick(["db.internal", "10.1.2.3", "[::1]", "fe80::1"]), port: 1 + Math.floor(rand() * 65535) },
            };
      const monitor = MonitorInput.parse(input);
      const text = serializeMonitorsYaml([monitor]);
      expect(load(text), text).toEqual([monitor]);
    }
  });
});

describe("monitorsJsonSchema", () => {
  it("describes a map of entry key → monitor, generated from MonitorInput", () => {
    const schema = monitorsJsonSchema() as {
      $schema: string;
      propertyNames: { pattern: string };
      additionalProperties: { oneOf: { properties: Record<string, { enum?: string[]; description?: string }>; required: string[] }[] };
    };
    expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(schema.propertyNames.pattern).toBe("^[^\\s\\p{Cc}](?:[^\\p{Cc}]*[^\\s\\p{Cc}])?$");
    const [http, tcp] = schema.additionalProperties.oneOf;
    expect(http?.properties.frequency?.enum).toEqual([...FREQUENCIES]);
    expect(http?.properties.key).toBeUndefined();
    expect(http?.properties.timeout?.description).toMatch(/Milliseconds/);
    expect(http?.required).toEqual(["frequency", "regions", "request"]);
    expect(tcp?.properties.assertions).toBeUndefined();
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });
});

describe("secrets in a monitors file", () => {
  const stored: Monitor = {
    ...STORED_DEFAULTS,
    id: 4,
    key: "billing",
    name: "Billing",
    kind: "http",
    frequency: "1m",
    regions: ["iad"],
    updatedAt: 1,
    request: {
      url: "https://billing.internal/health",
      method: "GET",
      headers: { Authorization: "***", "X-Tenant": "***", Accept: "application/json" },
      secretHeaders: ["X-Tenant"],
      followRedirects: true,
    },
    assertions: [],
  };

  it("an exported file asks for each redacted header by variable and keeps the rest as written", () => {
    const text = serializeMonitorsYaml([stored]);
    const placeholder = (name: string) => `\${${name}}`;
    expect(text).toContain(`Authorization: ${placeholder("BILLING_AUTHORIZATION")}`);
    expect(text).toContain(`X-Tenant: ${placeholder("BILLING_X_TENANT")}`);
    expect(text).toContain("Accept: application/json");
    expect(text).toContain("secretHeaders: [X-Tenant]");
  });

  it("uploading fills placeholders from the environment", () => {
    const text = serializeMonitorsYaml([stored]);
    const parsed = parseMonitorsYaml(text, "m.yaml", { env: { BILLING_AUTHORIZATION: "Bearer s3cret", BILLING_X_TENANT: "acme" } });
    if (!parsed.ok) throw new Error(parsed.errors[0]!.message);
    const m = parsed.monitors[0]!;
    expect(m.kind === "http" && m.request.headers).toEqual({
      Authorization: "Bearer s3cret",
      "X-Tenant": "acme",
      Accept: "application/json",
    });
  });

  it("an exported file asks for a URL's password and token by variable, and uploading fills them back", () => {
    const url = "https://ops:hunter2@billing.internal/health?api_key=k-42&page=2";
    const withSecrets: Monitor = { ...stored, request: { ...stored.request, url } };
    const text = serializeMonitorsYaml([withSecrets]);
    expect(text).toContain(`url: https://\${BILLING_URL_USERINFO}@billing.internal/health?api_key=\${BILLING_URL_API_KEY}&page=2`);
    expect(text).not.toMatch(/hunter2|k-42/);
    const env = { BILLING_AUTHORIZATION: "a", BILLING_X_TENANT: "b", BILLING_URL_USERINFO: "ops:hunter2", BILLING_URL_API_KEY: "k-42" };
    const parsed = parseMonitorsYaml(text, "m.yaml", { env });
    if (!parsed.ok) throw new Error(parsed.errors[0]!.message);
    const m = parsed.monitors[0]!;
    expect(m.kind === "http" && m.request.url).toBe(url);
    const missing = parseMonitorsYaml(text, "m.yaml", { env: { ...env, BILLING_URL_API_KEY: undefined } });
    expect(!missing.ok && missing.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/ billing\.request\.url uses \$\{BILLING_URL_API_KEY\}, which is not set in the environment$/),
    ]);
  });

  it("a placeholder whose variable is not set is an error naming the variable, the line and the header", () => {
    const parsed = parseMonitorsYaml(serializeMonitorsYaml([stored]), "m.yaml", { env: { BILLING_X_TENANT: "acme" } });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(
        /^m\.yaml:\d+:\d+ billing\.request\.headers\.Authorization uses \$\{BILLING_AUTHORIZATION\}, which is not set in the environment$/,
      ),
    ]);
  });
});
