import { analyticsExport, type Db } from "@vigil/db-schema";
import { eq, sql } from "drizzle-orm";
import { EXPORT_STORE, type ExportedResult } from "./clickhouse";

/** Where results go: the ClickHouse backend (anything that accepts a block of results). */
export interface ResultSink {
  insertResults(results: ExportedResult[]): Promise<void>;
}

export interface ExportOptions {
  /** Results per block sent to ClickHouse. */
  batch?: number;
  /** Blocks per call at most, so one call stays short while a backlog drains over the next ones. */
  maxBatches?: number;
}

export interface ExportOutcome {
  exported: number;
  /** check_result id (the stored row's rowid) everything up to which is now in ClickHouse. */
  through: number;
  /** Results still waiting behind the watermark when the call returned. */
  behind: number;
}

type Row = Record<string, unknown>;

const columns = sql.raw(`id as seq, id, workspace_id, monitor_id, location_id, region, cron_timestamp, started_at, status,
  latency_ms, status_code, error_message, attempts, timings`);

const toResult = (r: Row): ExportedResult => ({
  id: String(r.id),
  workspaceId: Number(r.workspace_id),
  monitorId: Number(r.monitor_id),
  locationId: Number(r.location_id),
  region: String(r.region),
  cronTimestamp: Number(r.cron_timestamp),
  startedAt: Number(r.started_at),
  status: r.status as ExportedResult["status"],
  latencyMs: Number(r.latency_ms),
  statusCode: r.status_code === null ? null : Number(r.status_code),
  errorMessage: r.error_message === null ? null : String(r.error_message),
  attempts: Number(r.attempts),
  timings: typeof r.timings === "string" ? (JSON.parse(r.timings) as Record<string, number>) : null,
});

async function mark(db: Db) {
  const [row] = await db.select().from(analyticsExport).where(eq(analyticsExport.store, EXPORT_STORE));
  return row ?? { exportedThrough: 0, pendingThrough: null };
}

async function setMark(db: Db, exportedThrough: number, pendingThrough: number | null) {
  const now = Date.now();
  await db
    .insert(analyticsExport)
    .values({ store: EXPORT_STORE, exportedThrough, pendingThrough, updatedAt: now })
    .onConflictDoUpdate({ target: analyticsExport.store, set: { exportedThrough, pendingThrough, updatedAt: now } });
}

/**
 * Copies check results that landed in libSQL (durably, at ingest) to ClickHouse, in rowid order past a
 * watermark kept in libSQL. A batch is first recorded as pending, then sent, then the watermark moves: a
 * failure or crash in between re-sends exactly the same rows, which ClickHouse drops as a duplicate block.
 * While ClickHouse is away the watermark stays put and the backlog follows on recovery; ingest and alerting
 * never wait for it. Throws AnalyticsUnavailableError when ClickHouse did not take a batch.
 */
export async function exportResults(db: Db, sink: ResultSink, opts: ExportOptions = {}): Promise<ExportOutcome> {
  const batch = Math.max(1, Math.floor(opts.batch ?? 5_000));
  const maxBatches = opts.maxBatches ?? 20;
  let { exportedThrough, pendingThrough } = await mark(db);
  let exported = 0;
  for (let i = 0; i < maxBatches; i++) {
    let rows: Row[];
    if (pendingThrough !== null && pendingThrough > exportedThrough) {
      rows = await db.all<Row>(
        sql`select ${columns} from check_result where id > ${exportedThrough} and id <= ${pendingThrough} order by id`,
      );
    } else {
      rows = await db.all<Row>(
        sql`select ${columns} from check_result where id > ${exportedThrough} order by id limit ${sql.raw(String(batch))}`,
      );
      if (rows.length === 0) break;
      pendingThrough = Number(rows[rows.length - 1]!.seq);
      await setMark(db, exportedThrough, pendingThrough);
    }
    await sink.insertResults(rows.map(toResult));
    exportedThrough = pendingThrough;
    pendingThrough = null;
    await setMark(db, exportedThrough, null);
    exported += rows.length;
  }
  const [left] = await db.all<{ n: number }>(sql`select count(*) as n from check_result_row where id > ${exportedThrough}`);
  return { exported, through: exportedThrough, behind: Number(left?.n ?? 0) };
}
