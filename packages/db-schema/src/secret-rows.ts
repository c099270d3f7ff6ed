// The stored secret columns as a whole: encrypting legacy rows, re-encrypting under the first key id
// (rotation), and checking at start that every row reads.
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./db";
import { retryThroughOutage } from "./retry";
import { heartbeat, monitor, notificationChannel, pageSubscriber } from "./schema";
import { currentKeyring, decryptSecret, isEncrypted, keyIdOf, parseSecretKey, SecretKeyError, setSecretKeyring } from "./secrets";

interface SecretColumn {
  table: SQLiteTable;
  id: SQLiteColumn;
  column: SQLiteColumn;
  /** The column's field name in the table's drizzle object. */
  field: string;
  /** table.column: bound into each ciphertext. */
  context: string;
}

const COLUMNS: SecretColumn[] = [
  {
    table: notificationChannel,
    id: notificationChannel.id,
    column: notificationChannel.config,
    field: "config",
    context: "notification_channel.config",
  },
  { table: monitor, id: monitor.id, column: monitor.headers, field: "headers", context: "monitor.headers" },
  { table: monitor, id: monitor.id, column: monitor.otelHeaders, field: "otelHeaders", context: "monitor.otel_headers" },
  { table: heartbeat, id: heartbeat.monitorId, column: heartbeat.token, field: "token", context: "heartbeat.token" },
  { table: pageSubscriber, id: pageSubscriber.id, column: pageSubscriber.url, field: "url", context: "page_subscriber.url" },
  { table: pageSubscriber, id: pageSubscriber.id, column: pageSubscriber.secret, field: "secret", context: "page_subscriber.secret" },
];

const PAGE = 500;

/** Rows of one column whose raw stored text matches `where`, a page at a time by id. */
async function* rawRows(db: Db, c: SecretColumn, where: SQL) {
  for (let after = -1; ; ) {
    // The raw text, not the column: the column would decrypt it.
    const rows = await db
      .select({ id: sql<number>`${c.id}`, raw: sql<string>`${c.column}` })
      .from(c.table)
      .where(and(sql`${c.id} > ${after}`, sql`${c.column} is not null`, where))
      .orderBy(c.id)
      .limit(PAGE);
    yield* rows;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** Each stored secret the current key cannot read, as "table ids" groups; empty when all read. */
export async function unreadableSecrets(db: Db): Promise<string[]> {
  const bad = new Map<string, Set<number>>();
  const keyring = currentKeyring();
  for (const c of COLUMNS)
    for await (const r of rawRows(db, c, sql`${c.column} like 'vgl1:%'`)) {
      try {
        if (!keyring) throw new Error("no key");
        decryptSecret(r.raw, c.context);
      } catch {
        const table = c.context.split(".")[0]!;
        bad.set(table, (bad.get(table) ?? new Set()).add(r.id));
      }
    }
  return [...bad].map(([table, ids]) => `${table} ${[...ids].sort((a, b) => a - b).join(", ")}`);
}

/**
 * Stops a service that reads secrets when VIGIL_SECRET_KEY is missing or cannot read every stored one:
 * it must never run on and lose them. Throws SecretKeyError with one line naming the rows.
 */
export async function assertSecretsReadable(db: Db, bad?: string[]): Promise<void> {
  bad ??= await unreadableSecrets(db);
  if (!currentKeyring())
    throw new SecretKeyError(
      `is not set: it is required to store and read secrets${bad.length ? ` (encrypted rows: ${bad.join("; ")})` : ""}`,
    );
  if (bad.length) throw new SecretKeyError(`cannot decrypt stored secrets (wrong key or key id removed): ${bad.join("; ")}`);
}

/**
 * A service's start (server, workflows, dashboard): takes VIGIL_SECRET_KEY's value (unset: the key already
 * in use, e.g. a test's) and checks every stored secret reads, waiting out a database still starting.
 */
export async function openSecrets(db: Db, value: string | undefined): Promise<void> {
  if (value) setSecretKeyring(parseSecretKey(value));
  await assertSecretsReadable(db, await retryThroughOutage(() => unreadableSecrets(db)));
}

/** For a service's main: a SecretKeyError ends the process with one line; anything else goes on up. */
export const exitOnSecretKeyError = (service: string) => (err: unknown) => {
  if (!(err instanceof SecretKeyError)) throw err;
  process.stderr.write(`${service}: ${err.message}\n`);
  process.exit(1);
};

/**
 * Encrypts legacy plaintext rows and re-encrypts rows under an older key id with the first one, so the
 * old key can be dropped afterwards. Idempotent; a row changed meanwhile is left to its writer.
 * Returns how many values were written; null without a key.
 */
export async function encryptSecretRows(db: Db): Promise<number | null> {
  const keyring = currentKeyring();
  if (!keyring) return null;
  await assertSecretsReadable(db);
  let written = 0;
  for (const c of COLUMNS) {
    const stale = sql`${c.column} not like ${`vgl1:${keyring.primary}:%`}`;
    for await (const r of rawRows(db, c, stale)) {
      if (keyIdOf(r.raw) === keyring.primary) continue; // `like` treats _ in a key id as a wildcard
      const value = JSON.parse(isEncrypted(r.raw) ? decryptSecret(r.raw, c.context) : r.raw);
      await db
        .update(c.table)
        .set({ [c.field]: value })
        .where(and(eq(c.id, r.id), sql`${c.column} = ${r.raw}`));
      written++;
    }
  }
  return written;
}
