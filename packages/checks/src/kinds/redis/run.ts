import { Redis } from "ioredis";
import type { AttemptOptions } from "../../budget";
import type { CheckResult } from "../../schema";
import { PhaseError, runDatabaseCheck } from "../database-run";
import type { RedisCheck } from "./index";

/** `GET "my key"` → ["GET", "my key"]: words, or quoted strings holding spaces. */
export function splitCommand(text: string): string[] {
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)].map((m) => m[1]?.replace(/\\(.)/g, "$1") ?? m[2] ?? m[3] ?? "");
}

/** One attempt at a Redis check: connect, send the command, read its reply (an array's first item), disconnect. */
export function runRedisCheck(def: RedisCheck, opts: AttemptOptions = {}): Promise<CheckResult> {
  return runDatabaseCheck(def, { defaultPort: 6379, label: "redis" }, opts, async (dial) => {
    const db = Number(dial.url.pathname.replace(/^\//, "") || 0);
    const client = new Redis({
      host: dial.address,
      port: dial.port,
      ...(dial.url.username && { username: decodeURIComponent(dial.url.username) }),
      ...(dial.url.password && { password: decodeURIComponent(dial.url.password) }),
      db: Number.isInteger(db) ? db : 0,
      ...(dial.url.protocol === "rediss:" && { tls: { servername: dial.host } }),
      lazyConnect: true,
      connectTimeout: dial.remainingMs(),
      commandTimeout: dial.remainingMs(),
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      enableOfflineQueue: false,
      enableReadyCheck: false,
      connectionName: "vigil-check",
    });
    // connect() only says "Connection is closed."; the socket's own error says why.
    let lastError: unknown;
    client.on("error", (err) => {
      lastError = err;
    });
    const stop = () => client.disconnect();
    dial.signal.addEventListener("abort", stop, { once: true });
    try {
      try {
        await client.connect();
      } catch (err) {
        throw new PhaseError("connect", lastError ?? err);
      }
      dial.connected();
      const [command = "PING", ...args] = splitCommand(def.query);
      const reply = await client.call(command, ...args);
      return Array.isArray(reply) ? reply[0] : reply;
    } finally {
      dial.signal.removeEventListener("abort", stop);
      client.disconnect();
    }
  });
}
