import { connect } from "node:net";
import { type Connection, createConnection } from "mysql2";
import type { AttemptOptions } from "../../budget";
import type { CheckResult } from "../../schema";
import { PhaseError, runDatabaseCheck } from "../database-run";
import type { MysqlCheck } from "./index";

const TLS_ON = /^(true|1|required|verify_ca|verify_identity)$/i;

/** One attempt at a MySQL/MariaDB check: connect, run the query, read the first row's first value, disconnect. */
export function runMysqlCheck(def: MysqlCheck, opts: AttemptOptions = {}): Promise<CheckResult> {
  return runDatabaseCheck(def, { defaultPort: 3306, label: "mysql" }, opts, async (dial) => {
    const q = dial.url.searchParams;
    const tls = TLS_ON.test(q.get("ssl") ?? q.get("ssl-mode") ?? q.get("sslmode") ?? "");
    const conn: Connection = createConnection({
      // The socket goes to the checked address; the driver's host (the TLS name) stays the connection string's.
      host: dial.host,
      port: dial.port,
      stream: connect({ host: dial.address, port: dial.port }),
      user: decodeURIComponent(dial.url.username),
      password: decodeURIComponent(dial.url.password),
      database: decodeURIComponent(dial.url.pathname.replace(/^\//, "")) || undefined,
      connectTimeout: dial.remainingMs(),
      ...(tls && { ssl: { rejectUnauthorized: true, verifyIdentity: true } }),
    });
    conn.on("error", () => {});
    const stop = () => conn.destroy();
    dial.signal.addEventListener("abort", stop, { once: true });
    let ok = false;
    try {
      await new Promise<void>((resolve, reject) => {
        conn.once("connect", () => resolve());
        conn.once("error", (err) => reject(new PhaseError("connect", err)));
      });
      dial.connected();
      const rows = await new Promise<unknown>((resolve, reject) =>
        conn.query({ sql: def.query, rowsAsArray: true, timeout: dial.remainingMs() }, (err, r) => (err ? reject(err) : resolve(r))),
      );
      ok = true;
      // Several statements answer one result set each: the first one's first row counts.
      const set = Array.isArray(rows) && Array.isArray(rows[0]) && Array.isArray(rows[0][0]) ? rows[0] : rows;
      return Array.isArray(set) && Array.isArray(set[0]) ? set[0][0] : undefined;
    } finally {
      dial.signal.removeEventListener("abort", stop);
      if (ok) await new Promise<void>((resolve) => conn.end(() => resolve()));
      else conn.destroy();
    }
  });
}
