// Results leaving the database: the analytics export's watermark and the Prometheus scrape counters.
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { updatedAt } from "./columns";
import { monitor } from "./monitors";
import { workspace } from "./workspace";

// ── Analytics export ─────────────────────────────────────────────────────────

/**
 * How far `check_result` has been copied to an external analytics store, by SQLite rowid (rowids grow in
 * commit order; ULIDs do not, since probes send late results). `pendingThrough` is the batch in flight:
 * it is re-sent as exactly the same rows until the store has accepted it.
 */
export const analyticsExport = sqliteTable("analytics_export", {
  store: text("store").primaryKey(),
  exportedThrough: integer("exported_through").notNull().default(0),
  pendingThrough: integer("pending_through"),
  updatedAt: updatedAt(),
});

// ── Prometheus scrape ────────────────────────────────────────────────────────

/**
 * Per monitor and location, every stored result folded once into Prometheus counters and a latency histogram
 * (cumulative `le_*` columns, ms), so a scrape adds only the results stored since the last one and the counters
 * never go back when retention deletes old results.
 */
export const metricCounter = sqliteTable(
  "metric_counter",
  {
    monitorId: integer("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
    locationId: integer("location_id").notNull(),
    workspaceId: integer("workspace_id").notNull(),
    total: integer("total").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    latencySumMs: integer("latency_sum_ms").notNull().default(0),
    le50: integer("le_50").notNull().default(0),
    le100: integer("le_100").notNull().default(0),
    le250: integer("le_250").notNull().default(0),
    le500: integer("le_500").notNull().default(0),
    le1000: integer("le_1000").notNull().default(0),
    le2500: integer("le_2500").notNull().default(0),
    le5000: integer("le_5000").notNull().default(0),
    le10000: integer("le_10000").notNull().default(0),
    le30000: integer("le_30000").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.monitorId, t.locationId] }), index("metric_counter_workspace").on(t.workspaceId)],
);

/** Per workspace: the check_result_row id through which its results are folded into metric_counter. */
export const metricWatermark = sqliteTable("metric_watermark", {
  workspaceId: integer("workspace_id")
    .primaryKey()
    .references(() => workspace.id, { onDelete: "cascade" }),
  through: integer("through").notNull(),
});
