import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { serviceBundle } from "@vigil/testing/service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDatabase, type TestDatabase } from "./testing";

const root = fileURLToPath(new URL("../../..", import.meta.url));
let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase({ auth: true });
});
afterAll(async () => t?.close());

const migrateCli = (env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [serviceBundle("server", "db-migrate")], {
    cwd: root,
    // As compose's db-migrate gets it: the token from the keys volume.
    env: { ...process.env, DATABASE_URL: t.url, DATABASE_AUTH_TOKEN_FILE: t.keys!.tokenFile, ...env },
    encoding: "utf8",
    timeout: 60_000,
  });

describe("pnpm db:migrate", () => {
  it("can run again and again on a migrated database without changing it", async () => {
    const before = await t.db.$client.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    for (let i = 0; i < 2; i++) {
      const r = migrateCli();
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/is up to date/);
    }
    const after = await t.db.$client.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    expect(after.rows).toEqual(before.rows);
    const tables = after.rows.map((r) => r.name);
    for (const name of [
      "workspace",
      "monitor",
      "private_location",
      "notification_channel",
      "status_event",
      "notification_delivery",
      "audit_log",
      "check_result_row",
      "monitor_evaluation",
    ]) {
      expect(tables).toContain(name);
    }
  });

  it("without the database's token it is refused and says so", () => {
    const r = migrateCli({ DATABASE_AUTH_TOKEN_FILE: "" });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^db-migrate: .*401/);
  });

  it("a token file that cannot be read stops it with one line naming the variable", () => {
    const r = migrateCli({ DATABASE_AUTH_TOKEN_FILE: "/nonexistent/db-token" });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("db-migrate: invalid environment: DATABASE_AUTH_TOKEN_FILE cannot be read (/nonexistent/db-token: ENOENT)\n");
  });

  it("the workspace table has the spec's columns", async () => {
    const cols = await t.db.$client.execute("SELECT name, type, \"notnull\" FROM pragma_table_info('workspace')");
    const byName = Object.fromEntries(cols.rows.map((r) => [r.name, { type: r.type, notnull: r.notnull }]));
    expect(byName.id?.type).toBe("INTEGER");
    expect(byName.name?.type).toBe("TEXT");
    expect(byName.limits?.type).toBe("TEXT");
    expect(byName.plan?.type).toBe("TEXT");
    expect(byName.paid_until?.type).toBe("INTEGER");
    expect(byName.ends_at).toEqual({ type: "INTEGER", notnull: 0 });
  });

  it("fails with one clear line when the database never answers", () => {
    const r = spawnSync(process.execPath, [serviceBundle("server", "db-migrate")], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: "http://127.0.0.1:9", DATABASE_WAIT_MS: "500" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^db-migrate: sqld at http:\/\/127.0.0.1:9 did not become healthy within 500 ms/);
  });
});
