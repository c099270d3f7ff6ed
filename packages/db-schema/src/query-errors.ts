import { DrizzleQueryError } from "drizzle-orm";
import { SQLitePreparedQuery } from "drizzle-orm/sqlite-core";

/**
 * drizzle's error text is "Failed query: <sql>\nparams: <every bound value>": a channel insert would
 * log its webhook URL, a session lookup its token. This keeps the statement and the database's reason
 * ("SQLITE_CONSTRAINT: … UNIQUE constraint failed: …") and drops the values, from the message, the
 * stack and the error itself. Anything else passes through unchanged.
 */
export function withoutQueryParams<T>(err: T): T {
  if (!(err instanceof DrizzleQueryError)) return err;
  const reason = (err.cause as { message?: string } | undefined)?.message;
  const message = `Failed query: ${err.query}${reason ? `\n${reason}` : ""}`;
  const frames = err.stack?.indexOf("\n    at ") ?? -1;
  err.message = message;
  err.stack = `Error: ${message}${frames >= 0 ? err.stack?.slice(frames) : ""}`;
  err.params = [];
  return err;
}

// Every drizzle query on SQLite (select, insert, run, inside a transaction or not) fails through this
// one method: scrubbing here means no caller (the API, a job's failedReason, a delivery row, Next's own
// error log) ever holds a bound value in an error.
type QueryWithCache = (this: unknown, ...args: unknown[]) => Promise<unknown>;
const proto = SQLitePreparedQuery.prototype as unknown as { queryWithCache: QueryWithCache };
const queryWithCache = proto.queryWithCache;
if (typeof queryWithCache !== "function") throw new Error("drizzle-orm changed: SQLitePreparedQuery.queryWithCache is gone");
proto.queryWithCache = async function (this: unknown, ...args: unknown[]) {
  try {
    return await queryWithCache.apply(this, args);
  } catch (err) {
    throw withoutQueryParams(err);
  }
};
