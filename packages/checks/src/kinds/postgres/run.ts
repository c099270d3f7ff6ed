import pg from "pg";
import { parse } from "pg-connection-string";
import type { AttemptOptions } from "../../budget";
import type { CheckResult } from "../../schema";
import { PhaseError, runDatabaseCheck } from "../database-run";
import type { PostgresCheck } from "./index";

/** One attempt at a PostgreSQL check: connect, run the query, read the first row's first value, disconnect. */
export function runPostgresCheck(def: PostgresCheck, opts: AttemptOptions = {}): Promise<CheckResult> {
  return runDatabaseCheck(def, { defaultPort: 5432, label: "postgres" }, opts, async (dial) => {
    const parsed = parse(def.connection);
    const ssl = parsed.ssl;
    const client = new pg.Client({
      user: parsed.user,
      password: parsed.password,
      database: parsed.database ?? undefined,
      host: dial.address,
      port: dial.port,
      // TLS still checks the certificate against the connection string's host, not the address.
      ssl: ssl ? ({ ...(typeof ssl === "object" ? ssl : {}), servername: dial.host } as pg.ClientConfig["ssl"]) : false,
      connectionTimeoutMillis: dial.remainingMs(),
      query_timeout: dial.remainingMs(),
      application_name: "vigil-check",
    });
    client.on("error", () => {}); // a dropped connection after the answer is not the check's failure
    const stop = () => (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    dial.signal.addEventListener("abort", stop, { once: true });
    try {
      try {
        await client.connect();
      } catch (err) {
        throw new PhaseError("connect", err);
      }
      dial.connected();
      const res = await client.query({ text: def.query, rowMode: "array" });
      const first = Array.isArray(res) ? res[0] : res;
      return (first?.rows?.[0] as unknown[] | undefined)?.[0];
    } finally {
      dial.signal.removeEventListener("abort", stop);
      await client.end().catch(() => stop());
    }
  });
}
