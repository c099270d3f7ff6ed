// The HTTP client only: every process reaches sqld over HTTP, and the full client loads the native SQLite
// library (~8 MB resident in each process) for file URLs nobody uses.
import { type Client, createClient, type InArgs } from "@libsql/client/http";
import { is, SQL, type SQLWrapper, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/libsql/http";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { Agent, type Dispatcher, request } from "undici";
import { allFulfilled, coalesced } from "./coalesce";
import type { Db } from "./db";
import { isRefusal, retryBusy } from "./retry";
import * as schema from "./schema";

export { allFulfilled, coalesced, inPasses } from "./coalesce";
export type { Conn, Db, Tx } from "./db";
export { withoutQueryParams } from "./query-errors";
export { DatabaseBusyError, isDatabaseBusy, retryThroughOutage } from "./retry";
export * from "./schema";
export { assertSecretsReadable, exitOnSecretKeyError, openSecrets, unreadableSecrets } from "./secret-rows";
export {
  currentKeyring,
  generateSecretKey,
  hashToken,
  parseSecretKey,
  SECRET_KEY_VAR,
  SecretKeyError,
  type SecretKeyring,
  setSecretKeyring,
} from "./secrets";
export { schema };

const REQUEST_TIMEOUT_MS = 30_000;

/** One client per process; `url` is sqld's HTTP address (`http://…`, `https://…`). */
export function createDb(url: string, authToken?: string, opts: { uncompressed?: boolean } = {}): Db {
  // sqld gzips its answers when asked, and fetch asks: on a loopback or private network that is CPU spent
  // twice (sqld compressing, us inflating) for nothing. Only a named host across the internet keeps it. The
  // services opt in; the web apps keep fetch's defaults (Next wraps fetch, and there replacing a request's
  // headers broke the dashboard's requests) and their traffic is light.
  const host = new URL(url).hostname;
  const near = opts.uncompressed === true && (!host.includes(".") || /^(\d+\.){3}\d+$/.test(host) || host.startsWith("["));
  // A request sqld never answers must fail (and be retried by its caller), not hang the caller forever.
  const fetchWithTimeout = near
    ? nearFetch(new Agent({ headersTimeout: REQUEST_TIMEOUT_MS, bodyTimeout: REQUEST_TIMEOUT_MS }))
    : (input: RequestInfo | URL, init?: RequestInit) =>
        fetch(input, {
          ...init,
          signal: init?.signal
            ? AbortSignal.any([init.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)])
            : AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
  const client = createClient({ url, authToken, fetch: fetchWithTimeout });
  const db = drizzle(client, { schema }) as Db;
  // Interactive transactions meet ingest's write batches on SQLite's one lock: retry a busy start
  // here, once for every caller, instead of answering 500 (or a rollback error hiding the cause).
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn, config) => retryBusy(() => transaction(fn, config))) as Db["transaction"];
  return db;
}

const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * fetch for a database near by, over undici's `request`: a third of fetch's CPU per round trip (no web
 * streams), which a service making hundreds of round trips a second feels; nothing asks for compression.
 */
function nearFetch(dispatcher: Agent) {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = input instanceof Request && init === undefined ? input : new Request(input, init);
    const headers: Record<string, string> = {};
    req.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const res = await request(req.url, {
      method: req.method as Dispatcher.HttpMethod,
      headers,
      body: req.body ? Buffer.from(await req.arrayBuffer()) : undefined,
      dispatcher,
    });
    const body = await res.body.arrayBuffer();
    const out = new Headers();
    for (const [name, value] of Object.entries(res.headers))
      if (value !== undefined) out.set(name, Array.isArray(value) ? value.join(", ") : value);
    return new Response(NO_BODY.has(res.statusCode) ? null : body, { status: res.statusCode, headers: out });
  };
}

// Turns a conditional statement written with drizzle's `sql` (INSERT … SELECT … WHERE) into a batch step.
const dialect = new SQLiteAsyncDialect();

type Stmt = { sql: string; args: InArgs };
type ResultSets = Awaited<ReturnType<Client["batch"]>>;

/**
 * Batches that queue up while one runs go next as one transaction (a group commit, each keeping its order
 * and its own results), at most this many statements; a refused statement rolls the group back, and then
 * each batch runs again alone for its own answer. Any other failure (busy, timeout, an outage) is every
 * batch's, as it would have been one by one.
 */
const groupCommit = coalesced(
  async (client: Client, batches: Stmt[][]): Promise<PromiseSettledResult<ResultSets>[]> => {
    try {
      const results = await client.batch(batches.flat(), "write");
      const answers: ResultSets[] = [];
      for (const b of batches) answers.push(results.splice(0, b.length));
      return allFulfilled(answers);
    } catch (err) {
      if (batches.length === 1 || !isRefusal(err)) throw err;
      const alone: PromiseSettledResult<ResultSets>[] = [];
      for (const b of batches)
        alone.push(
          await client.batch(b, "write").then(
            (value) => ({ status: "fulfilled", value }) as const,
            (reason) => ({ status: "rejected", reason }) as const,
          ),
        );
      return alone;
    }
  },
  { maxWeight: 400, weight: (b) => b.length },
);

/**
 * Runs drizzle queries as one atomic write batch (BEGIN IMMEDIATE), one round trip. drizzle's own
 * `db.batch` opens a deferred transaction, which concurrent writers turn into SQLITE_BUSY. Batches
 * of one process go to the database one at a time: SQLite serializes writers anyway, and many
 * writers waiting on its lock inside sqld cost far more than waiting here. Those sent while one runs
 * are committed together: a thousand alerts' log rows are a few commits, not a thousand.
 */
export async function writeBatch(db: Db, queries: ({ toSQL(): { sql: string; params: unknown[] } } | SQL)[]) {
  const stmts = queries.map((q) => {
    const { sql, params } = is(q, SQL) ? dialect.sqlToQuery(q) : q.toSQL();
    return { sql, args: params as InArgs };
  });
  return groupCommit(db.$client, stmts);
}

/**
 * `column in (ids)` with the ids as one JSON parameter: a list of 500 ids is one bound value, not 500 (each built,
 * encoded and decoded on its own); SQLite still seeks the column's index for each.
 */
export function inIds(column: SQLWrapper, ids: readonly number[]): SQL {
  return sql`${column} in (select value from json_each(${JSON.stringify(ids)}))`;
}

/**
 * Rows as a table (`column1`, `column2`, …) for set-based statements: `update … from ${rowsTable(rows)} as v`.
 * The rows travel as one JSON parameter, which SQLite unpacks itself: a statement over 500 rows costs one
 * bound value, not 5,000 (each of them encoded, sent and decoded on its own).
 */
export function rowsTable(rows: readonly (readonly (string | number | null)[])[]): SQL {
  const width = rows[0]?.length ?? 0;
  const columns = Array.from({ length: width }, (_, i) => `value ->> ${i} as column${i + 1}`).join(", ");
  return sql`(select ${sql.raw(columns)} from json_each(${JSON.stringify(rows)}))`;
}
