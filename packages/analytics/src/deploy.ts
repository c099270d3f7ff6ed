import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ClickHouseClient } from "@clickhouse/client";

export const MIGRATIONS_DIR = fileURLToPath(new URL("../clickhouse/", import.meta.url));

export interface Migration {
  version: number;
  name: string;
  checksum: string;
  statements: string[];
}

/** The numbered `NNNN_name.sql` files, oldest first, with `{database}` filled in. */
export function readMigrations(database: string, dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((file) => {
      const text = readFileSync(`${dir}/${file}`, "utf8");
      const statements = text
        .replaceAll("{database}", database)
        .split(/;\s*(?:\n|$)/)
        .map((s) => s.trim())
        .filter((s) => s.split("\n").some((line) => line.trim() !== "" && !line.trim().startsWith("--")));
      return {
        version: Number(file.slice(0, 4)),
        name: file.replace(/\.sql$/, ""),
        checksum: createHash("sha256").update(text).digest("hex"),
        statements,
      };
    });
}

export interface DeployOutcome {
  applied: string[];
  alreadyApplied: string[];
}

/**
 * Creates the database and applies the migrations it has not seen yet, recording each in
 * `schema_migrations`. Safe to run again and again (every statement is IF NOT EXISTS, so a run cut short
 * re-applies cleanly); refuses to go on when an applied file was edited afterwards.
 */
export async function deployAnalytics(client: ClickHouseClient, database: string, dir = MIGRATIONS_DIR): Promise<DeployOutcome> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database))
    throw new Error(`ANALYTICS_DATABASE: "${database}" must be letters, digits or underscores`);
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${database}` });
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS ${database}.schema_migrations
      (version UInt32, name String, checksum String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3))
      ENGINE = MergeTree ORDER BY version`,
  });
  const rows = await (
    await client.query({
      query: `SELECT version, any(name) AS name, any(checksum) AS checksum FROM ${database}.schema_migrations GROUP BY version`,
      format: "JSONEachRow",
    })
  ).json<{ version: number; name: string; checksum: string }>();
  const seen = new Map(rows.map((r) => [Number(r.version), r]));
  const outcome: DeployOutcome = { applied: [], alreadyApplied: [] };
  for (const m of readMigrations(database, dir)) {
    const done = seen.get(m.version);
    if (done) {
      if (done.checksum !== m.checksum) {
        throw new Error(`analytics migration ${m.name} changed after it was applied; add a new numbered file instead`);
      }
      outcome.alreadyApplied.push(m.name);
      continue;
    }
    for (const statement of m.statements) await client.command({ query: statement });
    await client.insert({
      table: `${database}.schema_migrations`,
      values: [{ version: m.version, name: m.name, checksum: m.checksum }],
      format: "JSONEachRow",
      columns: ["version", "name", "checksum"],
    });
    outcome.applied.push(m.name);
  }
  return outcome;
}
