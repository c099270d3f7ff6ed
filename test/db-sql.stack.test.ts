// `pnpm db:sql`: the operator's statements through sqld's `POST /`, with the database's token.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
// No local run here: the .data/db-token fallback must not find a real one.
const emptyDataDir = mkdtempSync(join(tmpdir(), "vigil-db-sql-"));
let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase({ auth: true });
});
afterAll(async () => {
  await t?.close();
  rmSync(emptyDataDir, { recursive: true, force: true });
});

const dbSql = (args: string[], env: Record<string, string> = {}) =>
  spawnSync("pnpm", ["-s", "db:sql", ...args], {
    cwd: root,
    // Empty counts as unset: only what the test gives reaches the command.
    env: {
      ...process.env,
      DATABASE_AUTH_TOKEN: "",
      DATABASE_AUTH_TOKEN_FILE: "",
      DATABASE_URL: t.url,
      VIGIL_DATA_DIR: emptyDataDir,
      ...env,
    },
    encoding: "utf8",
    timeout: 60_000,
  });

describe("pnpm db:sql", () => {
  it("prints the rows of a statement as a table", () => {
    const r = dbSql(["SELECT 1 AS one, 'x' AS letter"], { DATABASE_AUTH_TOKEN: t.keys!.token });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe("one  letter\n---  ------\n1    x\n(1 row)\n");
  });

  it("takes the token from DATABASE_AUTH_TOKEN_FILE, runs several statements and --json prints sqld's answer", async () => {
    const r = dbSql(["--json", "INSERT INTO workspace (name) VALUES ('from db:sql')", "SELECT name FROM workspace"], {
      DATABASE_AUTH_TOKEN_FILE: t.keys!.tokenFile,
    });
    expect(r.status, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout) as { results: { rows: unknown[][] } }[];
    expect(answer[1]!.results.rows).toEqual([["from db:sql"]]);
    await t.db.$client.execute("DELETE FROM workspace");
  });

  it("without a token it is refused: sqld's error, how to give the token, exit 1", () => {
    const r = dbSql(["SELECT 1"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("db:sql: the database answered 401: Unauthorized");
    expect(r.stderr).toContain("set DATABASE_AUTH_TOKEN or DATABASE_AUTH_TOKEN_FILE");
  });

  it("a statement sqld refuses exits 1 with its error, after the others ran", () => {
    const r = dbSql(["SELECT 2 AS two", "SELECT * FROM no_such_table"], { DATABASE_AUTH_TOKEN: t.keys!.token });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("two\n---\n2\n(1 row)");
    expect(r.stderr).toMatch(/^db:sql: no such table: no_such_table$/m);
  });
});
