// `pnpm db:sql "<statement>" ["<statement>"…]`: runs statements through the operator's endpoint, sqld's
// `POST {db_url}/ {"statements": [...]}`, with the database's token, so an operator never handles it by hand.
// The token: DATABASE_AUTH_TOKEN, else DATABASE_AUTH_TOKEN_FILE, else the local run's .data/db-token.
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { EnvError, env, parseEnv, z } from "@vigil/config";
import { DB_KEY_FILES } from "@vigil/sqld";
import { DATABASE_URL, DB_KEYS_DIR } from "./local";

type Value = string | number | null | { base64: string };
type Outcome = { results: { columns: string[]; rows: Value[][]; rows_written: number } } | { error: string | { message: string } };

const USAGE = 'usage: pnpm db:sql [--json] "<statement>" ["<statement>"…]';

function fail(message: string): never {
  process.stderr.write(`db:sql: ${message}\n`);
  process.exit(1);
}

function config() {
  try {
    return parseEnv(z.object({ DATABASE_URL: env.url(DATABASE_URL), DATABASE_AUTH_TOKEN: env.DATABASE_AUTH_TOKEN }));
  } catch (err) {
    if (err instanceof EnvError) fail(`${err.variable} ${err.rule}`);
    throw err;
  }
}

const cell = (v: Value) => (v === null ? "NULL" : typeof v === "object" ? JSON.stringify(v) : String(v));

/** Columns padded to their widest value, a rule under the header, and the row count. */
function table(columns: string[], rows: Value[][]): string {
  const text = rows.map((r) => r.map(cell));
  const widths = columns.map((c, i) => Math.max(c.length, ...text.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [
    line(columns),
    line(widths.map((w) => "-".repeat(w))),
    ...text.map(line),
    `(${rows.length} ${rows.length === 1 ? "row" : "rows"})`,
  ].join("\n");
}

function readArgs() {
  try {
    return parseArgs({ options: { json: { type: "boolean" }, help: { type: "boolean", short: "h" } }, allowPositionals: true });
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
}

const args = readArgs();
if (args.values.help) {
  console.log(USAGE);
  process.exit(0);
}
const statements = args.positionals;
if (statements.length === 0 || statements.some((s) => s.trim() === "")) fail(`give at least one statement, none empty\n${USAGE}`);

const { DATABASE_URL: url, DATABASE_AUTH_TOKEN } = config();
const localToken = `${DB_KEYS_DIR}/${DB_KEY_FILES.token}`;
const token = DATABASE_AUTH_TOKEN ?? (existsSync(localToken) ? readFileSync(localToken, "utf8").trim() : undefined);

let res: Response;
try {
  res = await fetch(`${url.replace(/\/+$/, "")}/`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ statements }),
  });
} catch (err) {
  const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
  fail(`cannot reach the database at ${url} (${cause?.code ?? cause?.message ?? (err as Error).message})`);
}
const body = await res.text();
if (!res.ok) {
  let message = body;
  try {
    message = (JSON.parse(body) as { error?: string }).error ?? body;
  } catch {}
  const hint =
    res.status === 401
      ? token
        ? " (the token is not signed by this database's key)"
        : ` (no token: set DATABASE_AUTH_TOKEN or DATABASE_AUTH_TOKEN_FILE; the local run keeps it in ${localToken})`
      : "";
  fail(`the database answered ${res.status}: ${message}${hint}`);
}
if (args.values.json) {
  process.stdout.write(`${body}\n`);
  const failed = (JSON.parse(body) as Outcome[]).some((o) => "error" in o);
  process.exit(failed ? 1 : 0);
}

// sqld runs each statement on its own: one may fail while the others ran.
let failed = false;
for (const [i, outcome] of (JSON.parse(body) as Outcome[]).entries()) {
  if (statements.length > 1) process.stdout.write(`${i > 0 ? "\n" : ""}> ${statements[i]}\n`);
  if ("error" in outcome) {
    failed = true;
    process.stderr.write(`db:sql: ${typeof outcome.error === "string" ? outcome.error : outcome.error.message}\n`);
    continue;
  }
  const { columns, rows, rows_written } = outcome.results;
  process.stdout.write(
    `${columns.length > 0 ? table(columns, rows) : `(${rows_written} ${rows_written === 1 ? "row" : "rows"} written)`}\n`,
  );
}
process.exit(failed ? 1 : 0);
