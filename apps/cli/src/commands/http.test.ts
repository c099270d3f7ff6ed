import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CheckResult, MonitorInput } from "@vigil/api-contract";
import { parseMonitorsYaml } from "@vigil/monitors-yaml";
import { VALID_FILE } from "@vigil/monitors-yaml/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { run } from "../main";
import { capture, closedPort, loopback, stored } from "../testing/harness";

// These run against a loopback stand-in for the server that checks what the CLI sends and answers
// with contract-shaped bodies; tests against the real server routes live with the server.

const TOKEN = "vk_test_123";

function parsed(text = VALID_FILE): MonitorInput[] {
  const r = parseMonitorsYaml(text);
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
  return r.monitors;
}

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A workspace dir holding monitors.yaml, and env pointing the CLI at the loopback server. */
function setup(url: string, file = VALID_FILE, extra: Parameters<typeof capture>[1] = {}) {
  const t = capture({ VIGIL_API_URL: url, VIGIL_API_TOKEN: TOKEN }, extra);
  writeFileSync(join(t.dir, "monitors.yaml"), file);
  return t;
}

describe("vigil create", () => {
  it("posts the whole file as one batch with the bearer token and prints the new ids", async () => {
    server = await loopback({
      "POST /v1/monitors/batch": (req) => ({
        status: 201,
        body: { monitors: (req.body as { monitors: MonitorInput[] }).monitors.map((m, i) => stored(m, 40 + i)) },
      }),
    });
    const t = setup(server.url);
    expect(await run(["create", "monitors.yaml"], t.io)).toBe(0);
    expect(server.requests).toHaveLength(1);
    const [req] = server.requests;
    expect(req).toMatchObject({ method: "POST", path: "/v1/monitors/batch" });
    expect(req?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req?.headers["content-type"]).toBe("application/json");
    expect(req?.body).toEqual({ monitors: parsed() });
    expect(t.stdout()).toBe("+ api-health  id 40\n+ postgres    id 41\ncreated 2 monitors\n");
    expect(t.stderr()).toBe("");
  });

  it("an invalid file is never sent", async () => {
    server = await loopback({});
    const t = setup(server.url, VALID_FILE.replace("regions: [ams, iad]", "regions: [mars]"));
    expect(await run(["create", "monitors.yaml"], t.io)).toBe(1);
    expect(server.requests).toHaveLength(0);
    expect(t.stderr()).toBe(
      'monitors.yaml:6:13 api-health.regions[0] must be a region id such as jnb, hkg, ams, iad, gru, syd (got "mars")\n' +
        "vigil: monitors.yaml: 1 problem; nothing was uploaded\n",
    );
  });

  it("with --json, a bad file and a refused call both answer one JSON error on stdout", async () => {
    server = await loopback({ "POST /v1/monitors/batch": { status: 401, body: { error: { code: "unauthorized", message: "bad key" } } } });
    const bad = setup(server.url, VALID_FILE.replace("regions: [ams, iad]", "regions: [mars]"));
    expect(await run(["create", "monitors.yaml", "--json"], bad.io)).toBe(1);
    expect(bad.stderr()).toBe("");
    expect(JSON.parse(bad.stdout())).toEqual({
      error: {
        message: "monitors.yaml: 1 problem; nothing was uploaded",
        exitCode: 1,
        issues: [
          { file: "monitors.yaml", line: 6, column: 13, path: "api-health.regions[0]", message: expect.stringContaining("region id") },
        ],
      },
    });
    const refused = setup(server.url);
    expect(await run(["create", "monitors.yaml", "--json"], refused.io)).toBe(1);
    expect(JSON.parse(refused.stdout()).error).toMatchObject({ status: 401, exitCode: 1, message: expect.stringContaining("bad key") });
    const missing = setup(server.url);
    expect(await run(["create", "nope.yaml", "--json"], missing.io)).toBe(1);
    expect(JSON.parse(missing.stdout()).error.message).toMatch(/cannot read nope\.yaml/);
  });

  it("a busy server (503) is asked again and the upload succeeds", async () => {
    let calls = 0;
    server = await loopback({
      "POST /v1/monitors/batch": (req) =>
        ++calls === 1
          ? { status: 503, body: { error: { code: "unavailable", message: "the database is unavailable; retry shortly" } } }
          : { status: 201, body: { monitors: (req.body as { monitors: MonitorInput[] }).monitors.map((m, i) => stored(m, 70 + i)) } },
    });
    const t = setup(server.url);
    expect(await run(["create", "monitors.yaml"], t.io)).toBe(0);
    expect(calls).toBe(2);
    expect(t.stdout()).toContain("created 2 monitors");
  });

  it("a file of 1,200 monitors goes up in pages, every entry once and in order", async () => {
    const entries = Array.from(
      { length: 1200 },
      (_, i) => `m${i}:\n  kind: tcp\n  frequency: 1m\n  regions: [iad]\n  request: { host: 127.0.0.1, port: ${1000 + i} }\n`,
    );
    let next = 1;
    server = await loopback({
      "POST /v1/monitors/batch": (req) => ({
        status: 201,
        body: { monitors: (req.body as { monitors: MonitorInput[] }).monitors.map((m) => stored(m, next++)) },
      }),
    });
    const t = setup(server.url, entries.join(""));
    expect(await run(["create", "monitors.yaml"], t.io)).toBe(0);
    const sizes = server.requests.map((r) => (r.body as { monitors: unknown[] }).monitors.length);
    expect(sizes).toEqual([500, 500, 200]);
    const keys = server.requests.flatMap((r) => (r.body as { monitors: { key: string }[] }).monitors.map((m) => m.key));
    expect(keys).toEqual(entries.map((_, i) => `m${i}`));
    expect(t.stdout()).toContain("created 1200 monitors");
  });

  it("a 400 with issues exits 1 and points each issue at the file's line", async () => {
    server = await loopback({
      "POST /v1/monitors/batch": {
        status: 400,
        body: {
          error: {
            code: "limit_exceeded",
            message: "the workspace's limits do not allow this batch",
            issues: [
              { path: "monitors.1.frequency", message: "30s is not in your plan (10m, 30m, 1h)" },
              { path: "monitors.0.assertions.1.target", message: "is not allowed" },
              { path: "monitors", message: "at most 1 monitor on your plan" },
            ],
          },
        },
      },
    });
    const t = setup(server.url);
    expect(await run(["create", "monitors.yaml"], t.io)).toBe(1);
    expect(t.stderr()).toBe(
      [
        "vigil: POST /v1/monitors/batch failed (400 limit_exceeded): the workspace's limits do not allow this batch",
        "monitors.yaml:24:14 postgres.frequency 30s is not in your plan (10m, 30m, 1h)",
        "monitors.yaml:16:69 api-health.assertions[1].target is not allowed",
        "  monitors: at most 1 monitor on your plan",
        "",
      ].join("\n"),
    );
  });

  it("a 500 exits 2", async () => {
    server = await loopback({
      "POST /v1/monitors/batch": { status: 500, body: { error: { code: "internal", message: "database is locked" } } },
    });
    const t = setup(server.url);
    expect(await run(["create", "monitors.yaml"], t.io)).toBe(2);
    expect(t.stderr()).toBe("vigil: POST /v1/monitors/batch failed (500 internal): database is locked\n");
  });

  it("a server that is not listening exits 2", async () => {
    const t = setup(`http://127.0.0.1:${await closedPort()}`);
    expect(await run(["create", "monitors.yaml"], t.io)).toBe(2);
    expect(t.stderr()).toMatch(/^vigil: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/monitors\/batch: .*ECONNREFUSED/);
  });

  it("an answer that does not match the contract exits 2", async () => {
    server = await loopback({ "POST /v1/monitors/batch": { status: 201, body: { created: 2 } } });
    const t = setup(server.url);
    expect(await run(["create", "monitors.yaml"], t.io)).toBe(2);
    expect(t.stderr()).toContain("the server's answer does not match the API contract at monitors");
  });

  it("a large file shows a progress line on stderr; a small one stays quiet unless stderr is a terminal", async () => {
    server = await loopback({
      "POST /v1/monitors/batch": (req) => ({
        status: 201,
        body: { monitors: (req.body as { monitors: MonitorInput[] }).monitors.map((m, i) => stored(m, i + 1)) },
      }),
    });
    const big = Array.from(
      { length: 60 },
      (_, i) => `m${i}:\n  frequency: 1m\n  regions: [ams]\n  request: { host: h${i}.internal, port: 80 }\n`,
    ).join("");
    const large = setup(server.url, big);
    expect(await run(["create", "monitors.yaml"], large.io)).toBe(0);
    expect(large.stderr()).toMatch(
      new RegExp(`^uploading 60 monitors to ${server.url}\\.\\.\\.\\nuploading 60 monitors to ${server.url}: done after \\d+\\.\\ds\\n$`),
    );

    const small = setup(server.url);
    expect(await run(["create", "monitors.yaml"], small.io)).toBe(0);
    expect(small.stderr()).toBe("");

    const tty = setup(server.url, VALID_FILE, { stderrIsTty: true });
    expect(await run(["create", "monitors.yaml"], tty.io)).toBe(0);
    // Redrawn in place: carriage return and "erase line" before each state.
    const frames = tty.stderr().split("\r\x1b[2K").filter(Boolean);
    expect(frames[0]).toMatch(/^uploading 2 monitors to .*\.\.\. 0\.\ds$/);
    expect(frames.at(-1)).toMatch(/^uploading 2 monitors to .*: done after \d+\.\ds\n$/);
  });
});

describe("vigil apply", () => {
  const plan = { create: ["api-health"], update: ["postgres"], delete: ["old-one"], unchanged: ["same"], applied: false };

  it("--dry-run sends dryRun and prints the plan; deletions are only listed as kept without --prune", async () => {
    server = await loopback({ "POST /v1/monitors/apply": { status: 200, body: plan } });
    const t = setup(server.url);
    expect(await run(["apply", "monitors.yaml", "--dry-run"], t.io)).toBe(0);
    expect(server.requests[0]).toMatchObject({
      method: "POST",
      path: "/v1/monitors/apply",
      body: { monitors: parsed(), prune: false, dryRun: true },
    });
    expect(t.stdout()).toBe(
      "+ api-health\n~ postgres\n1 monitor is not in monitors.yaml and kept (use --prune to delete): old-one\nplan: 1 to create, 1 to update, 0 to delete, 1 unchanged (dry run, nothing changed)\n",
    );
  });

  it("--prune sends prune and prints deletions", async () => {
    server = await loopback({ "POST /v1/monitors/apply": { status: 200, body: { ...plan, applied: true } } });
    const t = setup(server.url);
    expect(await run(["apply", "monitors.yaml", "--prune"], t.io)).toBe(0);
    expect(server.requests[0]?.body).toMatchObject({ prune: true, dryRun: false });
    expect(t.stdout()).toBe("+ api-health\n~ postgres\n- old-one\napplied: 1 created, 1 updated, 1 deleted, 1 unchanged\n");
  });

  it("--json prints the server's plan as is", async () => {
    server = await loopback({ "POST /v1/monitors/apply": { status: 200, body: plan } });
    const t = setup(server.url);
    expect(await run(["apply", "monitors.yaml", "--json"], t.io)).toBe(0);
    expect(JSON.parse(t.stdout())).toEqual(plan);
  });
});

describe("vigil import, list, delete, trigger", () => {
  const inputs = parsed().map((m, i) => (i === 0 ? { ...m, tags: ["prod", "web"] } : m));
  const monitors = inputs.map((m, i) => stored(m, i + 1));

  it("import writes YAML that validates and loads back as the same monitors", async () => {
    server = await loopback({ "GET /v1/monitors": { status: 200, body: { monitors } } });
    const t = setup(server.url);
    expect(await run(["import"], t.io)).toBe(0);
    expect(server.requests[0]).toMatchObject({ method: "GET", path: "/v1/monitors" });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const back = parseMonitorsYaml(t.stdout());
    expect(back.ok && back.monitors.map((m) => ({ ...m, openTelemetry: undefined }))).toEqual(
      inputs.map((m) => ({ ...m, openTelemetry: undefined })),
    );
    expect(t.stderr()).toContain("set API_HEALTH_OTLP_AUTHORIZATION in the environment before `vigil apply`");
  });

  it("import writes no password or token of a monitor's URL, and apply with the named variables set sends the URL back whole", async () => {
    const url = "https://ops:hunter2@example.com/health?token=t-981&page=2";
    const first = monitors[0]!;
    const secretive = { ...first, request: { ...first.request, url } } as typeof first;
    server = await loopback({
      "GET /v1/monitors": { status: 200, body: { monitors: [secretive] } },
      "POST /v1/monitors/apply": { status: 200, body: { create: [], update: ["api-health"], delete: [], unchanged: [], applied: true } },
    });
    const exported = setup(server.url);
    expect(await run(["import", "-o", "monitors.yaml"], exported.io)).toBe(0);
    const text = readFileSync(join(exported.dir, "monitors.yaml"), "utf8");
    expect(text).toContain(`url: https://\${API_HEALTH_URL_USERINFO}@example.com/health?token=\${API_HEALTH_URL_TOKEN}&page=2`);
    expect(`${text}${exported.stdout()}${exported.stderr()}`).not.toMatch(/hunter2|t-981/);
    expect(exported.stderr()).toContain("API_HEALTH_URL_USERINFO, API_HEALTH_URL_TOKEN");
    vi.stubEnv("API_HEALTH_URL_USERINFO", "ops:hunter2");
    vi.stubEnv("API_HEALTH_URL_TOKEN", "t-981");
    vi.stubEnv("API_HEALTH_OTLP_AUTHORIZATION", "Bearer otlp");
    try {
      const applied = setup(server.url, text);
      expect(await run(["apply", "monitors.yaml"], applied.io)).toBe(0);
      const sent = server.requests.at(-1)?.body as { monitors: MonitorInput[] };
      expect(sent.monitors[0]).toMatchObject({ request: { url } });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("import -o writes the file", async () => {
    server = await loopback({ "GET /v1/monitors": { status: 200, body: { monitors: [{ ...monitors[1], key: null, name: "Main DB" }] } } });
    const t = setup(server.url);
    expect(await run(["import", "-o", "out.yaml"], t.io)).toBe(0);
    const text = readFileSync(join(t.dir, "out.yaml"), "utf8");
    expect(text.split("\n").slice(0, 3)).toEqual(["# yaml-language-server: $schema=./vigil.schema.json", "main-db:", "  name: Main DB"]);
    expect(t.stderr()).toContain("wrote 1 monitor to out.yaml\nnote: 1 monitor has no key on the server");
  });

  it("list prints a table, or JSON with --json; --tag asks the server for monitors carrying every tag", async () => {
    server = await loopback({
      "GET /v1/monitors": { status: 200, body: { monitors } },
      "GET /v1/monitors?tag=prod&tag=web": { status: 200, body: { monitors: [monitors[0]] } },
      "GET /v1/monitors?tag=staging": { status: 200, body: { monitors: [] } },
    });
    const t = setup(server.url);
    expect(await run(["list"], t.io)).toBe(0);
    expect(t.stdout()).toBe(
      [
        "ID  KEY         NAME        KIND  EVERY  REGIONS  ACTIVE  STATUS  TAGS      TARGET",
        "1   api-health  API health  http  1m     ams,iad  yes     ok      prod,web  https://example.com/health",
        "2   postgres    -           tcp   30s    iad      yes     ok      -         db.internal:5432",
        "",
      ].join("\n"),
    );
    const tagged = setup(server.url);
    expect(await run(["list", "--tag", "prod", "-t", "web"], tagged.io)).toBe(0);
    expect(tagged.stdout().split("\n").slice(1, -1)).toEqual([
      "1   api-health  API health  http  1m     ams,iad  yes     ok      prod,web  https://example.com/health",
    ]);
    const none = setup(server.url);
    expect(await run(["list", "--tag", "staging"], none.io)).toBe(0);
    expect(none.stdout()).toBe("no monitor is tagged staging\n");
    const j = setup(server.url);
    expect(await run(["list", "--json"], j.io)).toBe(0);
    expect(JSON.parse(j.stdout())).toEqual(monitors);
  });

  it("delete sends one DELETE per id; a bad id sends nothing and exits 1", async () => {
    server = await loopback({ "DELETE /v1/monitors/12": { status: 204 }, "DELETE /v1/monitors/13": { status: 204 } });
    const t = setup(server.url);
    expect(await run(["delete", "12", "13"], t.io)).toBe(0);
    expect(server.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization}`)).toEqual([
      `DELETE /v1/monitors/12 Bearer ${TOKEN}`,
      `DELETE /v1/monitors/13 Bearer ${TOKEN}`,
    ]);
    expect(t.stdout()).toBe("deleted monitor 12\ndeleted monitor 13\n");
    const bad = setup(server.url);
    expect(await run(["delete", "12x"], bad.io)).toBe(1);
    expect(bad.stderr()).toBe('vigil: "12x" is not a monitor id (a positive whole number, see `vigil list`)\n');
    expect(server.requests).toHaveLength(2);
  });

  it("delete of an unknown id exits 1 with the server's message", async () => {
    server = await loopback({
      "DELETE /v1/monitors/99": { status: 404, body: { error: { code: "not_found", message: "monitor 99 does not exist" } } },
    });
    const t = setup(server.url);
    expect(await run(["delete", "99"], t.io)).toBe(1);
    expect(t.stderr()).toBe("vigil: DELETE /v1/monitors/99 failed (404 not_found): monitor 99 does not exist\n");
  });

  it("trigger posts to the monitor and prints the check result", async () => {
    const result: CheckResult = {
      status: "error",
      latencyMs: 312.4,
      statusCode: 503,
      errorMessage: "assertion failed: status code 503 is not 200",
      attempts: 4,
      assertions: [{ kind: "statusCode", ok: false, message: "503 eq 200" }],
    };
    server = await loopback({
      "POST /v1/monitors/7/trigger": { status: 200, body: { location: { id: 2, name: "edge-1", region: "iad" }, result } },
    });
    const t = setup(server.url);
    expect(await run(["trigger", "7"], t.io)).toBe(0);
    expect(server.requests[0]).toMatchObject({ method: "POST", path: "/v1/monitors/7/trigger" });
    expect(t.stdout()).toBe(
      "ran on edge-1 (iad)\nerror in 312ms, HTTP 503 (4 attempts)\nerror: assertion failed: status code 503 is not 200\n  FAIL statusCode: 503 eq 200\n",
    );
  });
});

describe("vigil login", () => {
  it("checks the token with whoami, then saves server and token readable by the owner only", async () => {
    server = await loopback({
      "GET /v1/whoami": { status: 200, body: { workspace: { id: 3, name: "Acme", plan: "team" }, apiKey: { id: 9, name: "laptop" } } },
    });
    const t = capture({ XDG_CONFIG_HOME: undefined, VIGIL_CONFIG: undefined });
    const io = { ...t.io, env: { XDG_CONFIG_HOME: join(t.dir, "xdg") } };
    expect(await run(["login", "--api-url", server.url, "--token", "vk_live"], io)).toBe(0);
    const path = join(t.dir, "xdg", "vigil", "config.json");
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ apiUrl: server.url, token: "vk_live" });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(t.stdout()).toBe(`logged in to ${server.url} as workspace Acme (key laptop); saved to ${path}\n`);
    // Later commands need no flags.
    expect(await run(["whoami"], io)).toBe(0);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(["Bearer vk_live", "Bearer vk_live"]);
  });

  it("asks for the token when none is given and a terminal is there", async () => {
    server = await loopback({
      "GET /v1/whoami": { status: 200, body: { workspace: { id: 3, name: null, plan: null }, apiKey: { id: 9, name: "k" } } },
    });
    const questions: string[] = [];
    const prompt = async (question: string) => {
      questions.push(question);
      return " typed-token \n";
    };
    const t = capture({}, { prompt });
    expect(await run(["login", "--api-url", server.url], t.io)).toBe(0);
    expect(questions).toEqual([`API token for ${server.url}: `]);
    expect(JSON.parse(readFileSync(t.io.env.VIGIL_CONFIG as string, "utf8")).token).toBe("typed-token");
  });

  it("a rejected token exits 1 and saves nothing", async () => {
    server = await loopback({ "GET /v1/whoami": { status: 401, body: { error: { code: "unauthorized", message: "unknown API key" } } } });
    const t = capture();
    expect(await run(["login", "--api-url", server.url, "--token", "bad"], t.io)).toBe(1);
    expect(t.stderr()).toBe(
      "vigil: GET /v1/whoami failed (401 unauthorized): unknown API key (check the token: --token, VIGIL_API_TOKEN or `vigil login`)\n",
    );
    expect(() => statSync(t.io.env.VIGIL_CONFIG as string)).toThrow();
  });
});
