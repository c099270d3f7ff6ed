import { type Db, writeBatch } from "@vigil/db-schema";
import { ValidationError } from "../errors";

/** Latency histogram bounds (ms) = the `le_*` columns of metric_counter; exposed in seconds. */
export const LATENCY_BUCKETS_MS = [50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000] as const;
/** At most this many tag names become labels: each adds one label to every series, never a series. */
export const MAX_TAG_LABELS = 10;

type Stmt = { sql: string; args: (string | number)[] };
const raw = (s: Stmt) => ({ toSQL: () => ({ sql: s.sql, params: s.args }) });

const BUCKET_COLS = LATENCY_BUCKETS_MS.map((b) => `le_${b}`);

/**
 * Folds the workspace's results stored since its watermark into its counters. Runs in the scrape's write
 * transaction, so two scrapes at once never count a result twice; reads only the new rows (by rowid).
 */
const fold = (workspaceId: number): Stmt => ({
  sql: `insert into metric_counter (monitor_id, location_id, workspace_id, total, failed, latency_sum_ms, ${BUCKET_COLS.join(", ")})
    select r.monitor_id, r.location_id, r.workspace_id, count(*), sum(r.status = 2), sum(r.latency_ms),
      ${LATENCY_BUCKETS_MS.map((b) => `sum(r.latency_ms <= ${b})`).join(", ")}
    from check_result_row r join monitor m on m.id = r.monitor_id
    where r.id > coalesce((select through from metric_watermark where workspace_id = ?), 0) and r.workspace_id = ?
    group by r.monitor_id, r.location_id
    on conflict (monitor_id, location_id) do update set total = total + excluded.total, failed = failed + excluded.failed,
      latency_sum_ms = latency_sum_ms + excluded.latency_sum_ms,
      ${BUCKET_COLS.map((c) => `${c} = ${c} + excluded.${c}`).join(", ")}`,
  args: [workspaceId, workspaceId],
});

const advance = (workspaceId: number): Stmt => ({
  sql: `insert into metric_watermark (workspace_id, through) values (?, (select coalesce(max(id), 0) from check_result_row))
    on conflict (workspace_id) do update set through = excluded.through`,
  args: [workspaceId],
});

/** The end of the certificate the location's latest HTTPS or TLS check saw (ms); null for other kinds. */
const CERT_EXPIRES_AT = "s.cert_not_after";

/** A label value escaped for the exposition format, in SQL: the database builds each series' label set once. */
const esc = (col: string) => `replace(replace(replace(${col}, '\\', '\\\\'), char(10), '\\n'), '"', '\\"')`;

const read = (workspaceId: number, withTags: boolean): Stmt => ({
  sql: `select 'monitor_id="' || m.id || '",monitor_name="' || ${esc("m.name")} || '",kind="' || m.kind || '",location="' || ${esc("l.name")}
        || '",region="' || ${esc("l.region")} || '"' as labels,
      ${withTags ? "m.tags" : "null"} as tags, s.status, s.cron_timestamp, ${CERT_EXPIRES_AT} as cert_expires_at,
      coalesce(c.total, 0) as total, coalesce(c.failed, 0) as failed, coalesce(c.latency_sum_ms, 0) as latency_sum_ms,
      ${BUCKET_COLS.map((col) => `coalesce(c.${col}, 0)`).join(" || ' ' || ")} as buckets
    from monitor m
    join monitor_location_status s on s.monitor_id = m.id
    join private_location l on l.id = s.location_id and l.deleted_at is null
    left join metric_counter c on c.monitor_id = s.monitor_id and c.location_id = s.location_id
    where m.workspace_id = ? and m.deleted_at is null
    order by m.id, l.id`,
  args: [workspaceId],
});

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** The tag names a scrape asks for (`?tags=team,env`), checked: each becomes the label `tag_<name>`. */
export function parseTagLabels(param: string | undefined): string[] {
  if (!param) return [];
  const names = [...new Set(param.split(",").map((t) => t.trim()))].filter(Boolean);
  const issues: { path: string; message: string }[] = [];
  if (names.length > MAX_TAG_LABELS) issues.push({ path: "tags", message: `must name at most ${MAX_TAG_LABELS} tags` });
  for (const n of names)
    if (!LABEL_NAME.test(n))
      issues.push({ path: "tags", message: `"${n}" must be letters, digits and _ (a Prometheus label name), not starting with a digit` });
  if (issues.length) throw new ValidationError("invalid tags", issues);
  return names;
}

/** A monitor's value for a chosen tag name: the tag `name:value` gives value, the bare tag `name` gives "true". */
function tagValue(tags: string[], name: string): string {
  for (const t of tags) {
    if (t === name) return "true";
    if (t.length > name.length && t.startsWith(name) && t[name.length] === ":") return t.slice(name.length + 1);
  }
  return "";
}

const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');

const HELP: [string, string, string][] = [
  ["vigil_monitor_up", "gauge", "1 when the location's latest check did not end in error, else 0."],
  ["vigil_monitor_status", "gauge", "The location's latest check status: 1 for the status named by the label, 0 for the others."],
  ["vigil_monitor_last_check_timestamp_seconds", "gauge", "Scheduled time (slot) of the location's latest check, seconds since epoch."],
  ["vigil_monitor_checks_total", "counter", "Checks stored for the monitor at the location."],
  ["vigil_monitor_checks_failed_total", "counter", "Checks stored for the monitor at the location that ended in error."],
  ["vigil_monitor_latency_seconds", "histogram", "Latency of the stored checks (as measured by the probe), seconds."],
  ["vigil_monitor_cert_expiry_days", "gauge", "Days until the TLS certificate seen by the latest check expires (only where known)."],
];
const header = (name: string) => {
  const [, type, help] = HELP.find((h) => h[0] === name)!;
  return `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`;
};

const STATUSES = ["success", "degraded", "error"] as const;

/**
 * The workspace's monitors as Prometheus text exposition (0.0.4): one series set per monitor and location,
 * from one write batch (fold new results, advance the watermark, read) whatever the number of monitors.
 */
export async function prometheusMetrics(db: Db, workspaceId: number, opts: { tagLabels?: string[]; now?: number } = {}): Promise<string> {
  const tagLabels = opts.tagLabels ?? [];
  const now = opts.now ?? Date.now();
  const results = await writeBatch(db, [raw(fold(workspaceId)), raw(advance(workspaceId)), raw(read(workspaceId, tagLabels.length > 0))]);
  const rows = results[2]!.rows;
  const [up, status, last, total, failed, latency, cert] = HELP.map(() => [] as string[]) as [
    string[],
    string[],
    string[],
    string[],
    string[],
    string[],
    string[],
  ];
  const les = LATENCY_BUCKETS_MS.map((b) => `,le="${b / 1000}"} `);
  for (const r of rows) {
    let labels = String(r.labels);
    if (tagLabels.length) {
      const tags = JSON.parse(String(r.tags ?? "[]")) as string[];
      for (const t of tagLabels) labels += `,tag_${t}="${escapeLabel(tagValue(tags, t))}"`;
    }
    const st = String(r.status);
    up.push(`vigil_monitor_up{${labels}} ${st === "error" ? 0 : 1}`);
    for (const x of STATUSES) status.push(`vigil_monitor_status{${labels},status="${x}"} ${x === st ? 1 : 0}`);
    last.push(`vigil_monitor_last_check_timestamp_seconds{${labels}} ${Number(r.cron_timestamp) / 1000}`);
    total.push(`vigil_monitor_checks_total{${labels}} ${r.total}`);
    failed.push(`vigil_monitor_checks_failed_total{${labels}} ${r.failed}`);
    const counts = String(r.buckets).split(" ");
    const bucket = `vigil_monitor_latency_seconds_bucket{${labels}`;
    for (let i = 0; i < les.length; i++) latency.push(bucket + les[i] + counts[i]);
    latency.push(`${bucket},le="+Inf"} ${r.total}`);
    latency.push(`vigil_monitor_latency_seconds_sum{${labels}} ${Number(r.latency_sum_ms) / 1000}`);
    latency.push(`vigil_monitor_latency_seconds_count{${labels}} ${r.total}`);
    if (r.cert_expires_at != null)
      cert.push(`vigil_monitor_cert_expiry_days{${labels}} ${((Number(r.cert_expires_at) - now) / 86_400_000).toFixed(2)}`);
  }
  const parts: string[] = [];
  [up, status, last, total, failed, latency, cert].forEach((lines, i) => {
    if (lines.length) parts.push(header(HELP[i]![0]), lines.join("\n"), "\n");
  });
  return parts.join("");
}
