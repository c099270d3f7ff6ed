import { EgressPolicy } from "@vigil/egress";
import { Redis } from "ioredis";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { runCheck } from "../index";
import { refusedPort } from "../testing/servers";
import { CheckDefinition } from "./index";

// This machine's own servers (see docs/check-kinds.md for how CI starts them).
const POSTGRES = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const MYSQL = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test";
const REDIS = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

type Kind = "postgres" | "mysql" | "redis";
const check = (kind: Kind, connection: string, extra: Record<string, unknown> = {}) =>
  CheckDefinition.parse({ kind, connection, retry: 0, timeoutMs: 5000, ...extra });

const cases: { kind: Kind; url: string; query: string; value: string; scheme: string }[] = [
  { kind: "postgres", url: POSTGRES, query: "SELECT 40 + 2", value: "42", scheme: "postgres" },
  { kind: "mysql", url: MYSQL, query: "SELECT 40 + 2", value: "42", scheme: "mysql" },
  { kind: "redis", url: REDIS, query: "ECHO 42", value: "42", scheme: "redis" },
];

describe.each(cases)("$kind checks against this machine's server", ({ kind, url, query, value, scheme }) => {
  it("the default query succeeds", async () => {
    const result = await runCheck(check(kind, url));
    expect(result.status).toBe("success");
    expect(result.latencyMs).toBeGreaterThan(0);
    expect(result.details?.value).toBe(kind === "redis" ? "PONG" : "1");
  });

  it("assertions read the first row's first value: a match passes, a mismatch is an error naming both", async () => {
    const ok = await runCheck(check(kind, url, { query, assertions: [{ kind: "textBody", compare: "eq", target: value }] }));
    expect(ok.status).toBe("success");
    const bad = await runCheck(check(kind, url, { query, assertions: [{ kind: "textBody", compare: "eq", target: "7" }] }));
    expect(bad.status).toBe("error");
    expect(bad.errorMessage).toBe(`textBody: expected eq "7", got "${value}"`);
  });

  it("a query the server refuses is an error naming the query phase", async () => {
    const result = await runCheck(check(kind, url, { query: "NOT A REAL STATEMENT" }));
    expect(result.status).toBe("error");
    expect(result.errorMessage).toMatch(new RegExp(`^${kind}: query failed: `));
  });

  it("a port nothing listens on is an error naming the connect phase", async () => {
    const port = await refusedPort();
    const result = await runCheck(check(kind, `${scheme}://u:pw@127.0.0.1:${port}/x`));
    expect(result.errorMessage).toBe(`${kind}: connection refused by 127.0.0.1:${port}`);
    expect(result.errorMessage).not.toContain("pw");
  });

  it("the instance's own endpoint on that port is refused, by address or by name", async () => {
    const u = new URL(url);
    const egress = await EgressPolicy.create({ instance: [{ name: "redis", url: `redis://127.0.0.1:${u.port}` }] });
    const byAddress = await runCheck(check(kind, url), { egress });
    expect(byAddress.errorMessage).toBe(`${kind}: target 127.0.0.1:${u.port} is this instance's redis; refused`);
    u.hostname = "localhost";
    const byName = await runCheck(check(kind, u.toString()), { egress });
    expect(byName.errorMessage).toMatch(new RegExp(`^${kind}: target localhost:${u.port} \\(.+\\) is this instance's redis; refused$`));
  });
});

describe("database checks close their connection every time", () => {
  it("PostgreSQL: no check connection is left after checks that pass and fail", async () => {
    await runCheck(check("postgres", POSTGRES));
    await runCheck(check("postgres", POSTGRES, { query: "SELECT nope" }));
    const admin = new pg.Client({ connectionString: POSTGRES });
    await admin.connect();
    try {
      const { rows } = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'vigil-check'");
      expect(rows[0].n).toBe(0);
    } finally {
      await admin.end();
    }
  });

  it("Redis: no check connection is left after checks that pass and fail", async () => {
    await runCheck(check("redis", REDIS));
    await runCheck(check("redis", REDIS, { query: "NOSUCHCOMMAND" }));
    const admin = new Redis(REDIS);
    try {
      const list = String(await admin.call("CLIENT", "LIST"));
      expect(list).not.toContain("name=vigil-check");
    } finally {
      admin.disconnect();
    }
  });

  it("a wrong password is a connect-phase error that does not echo the password", async () => {
    const result = await runCheck(check("mysql", MYSQL.replace("root@", "root:hunter2@")));
    expect(result.status).toBe("error");
    expect(result.errorMessage).toMatch(/^mysql: connect failed: Access denied/);
    expect(result.errorMessage).not.toContain("hunter2");
  });
});
