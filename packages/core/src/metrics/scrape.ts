// The Prometheus scrape in one file: folding results into counters, the series query and the streamed text share one series layout.
import { MAX_TAG_LABELS } from "@vigil/api-contract";
import { type Db, writeBatch } from "@vigil/db-schema";
import { ValidationError } from "../errors";

/** Latency histogram bounds (ms) = the `le_*` columns of metric_counter; exposed in seconds. */
export const LATENCY_BUCKETS_MS = [50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000] as const;
// The bound lives with the query that documents it.
export { MAX_TAG_LABELS };

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

/** Monitors per row of the read: a row stays far below sqld's largest string (a few MB). */
const MONITORS_PER_ROW = 1000;

/**
 * Each series set as a JSON array (see `R`), those of a thousand monitors as one JSON array per row, in any
 * order. SQLite builds JSON for a third of the CPU that strings joined with `||` cost, and the client reads
 * one value per row, not an object property per row and column.
 */
const read = (workspaceId: number, withTags: boolean): Stmt => ({
  sql: `select json_group_array(json_array(m.id, l.id, m.name, m.kind, l.name, l.region, s.status, s.cron_timestamp, ${CERT_EXPIRES_AT},
        coalesce(c.total, 0), coalesce(c.failed, 0), coalesce(c.latency_sum_ms, 0), ${BUCKET_COLS.map((col) => `coalesce(c.${col}, 0)`).join(", ")}${withTags ? ", json(m.tags)" : ""}))
      from monitor m
      join monitor_location_status s on s.monitor_id = m.id
      join private_location l on l.id = s.location_id and l.deleted_at is null
      left join metric_counter c on c.monitor_id = s.monitor_id and c.location_id = s.location_id
      where m.workspace_id = ? and m.deleted_at is null and m.kind != 'heartbeat'
    group by m.id / ${MONITORS_PER_ROW}`,
  args: [workspaceId],
});
/** The `location` label of a heartbeat's series. */
export const HEARTBEAT_LOCATION = "server";
/**
 * Heartbeats, watched by the server rather than a location: one series set each, named location "server",
 * with the monitor's status and its last ping (any kind) in place of a location's latest check.
 */
const readHeartbeats = (workspaceId: number, withTags: boolean): Stmt => ({
  sql: `select json_group_array(json_array(m.id, 0, m.name, m.kind, '${HEARTBEAT_LOCATION}', '',
        case m.status when 'error' then 'error' when 'degraded' then 'degraded' else 'success' end, null, null,
        0, 0, 0, ${BUCKET_COLS.map(() => "0").join(", ")}, ${withTags ? "json(m.tags)" : "null"},
        nullif(max(coalesce(h.last_ping_at, 0), coalesce(h.started_at, 0)), 0)))
      from monitor m left join heartbeat h on h.monitor_id = m.id
      where m.workspace_id = ? and m.deleted_at is null and m.kind = 'heartbeat'
    group by m.id / ${MONITORS_PER_ROW}`,
  args: [workspaceId],
});
/** Positions in a series set's array. */
const R = {
  monitorId: 0,
  locationId: 1,
  name: 2,
  kind: 3,
  location: 4,
  region: 5,
  status: 6,
  cron: 7,
  cert: 8,
  total: 9,
  failed: 10,
  sum: 11,
  buckets: 12,
  tags: 12 + LATENCY_BUCKETS_MS.length,
  /** A heartbeat's last ping (ms), after the tags' place. */
  ping: 13 + LATENCY_BUCKETS_MS.length,
} as const;
type SetRow = (string | number | null)[] & { [R.tags]?: string[] };
/** A series set of a monitor checked by probes (not a heartbeat): it has checks to count and time. */
const checked = (v: SetRow) => v[R.kind] !== "heartbeat";

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

const SPECIAL = /[\\\n"]/;
const escapeLabel = (v: string) => (SPECIAL.test(v) ? v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"') : v);

const HELP: [string, string, string][] = [
  [
    "vigil_monitor_info",
    "gauge",
    "Always 1: the monitor and location's names, kind, region and chosen tags, for joins on monitor_id and location.",
  ],
  ["vigil_monitor_up", "gauge", "1 when the location's latest check did not end in error, else 0."],
  ["vigil_monitor_status", "gauge", "The location's latest check status: 1 for the status named by the label, 0 for the others."],
  ["vigil_monitor_last_check_timestamp_seconds", "gauge", "Scheduled time (slot) of the location's latest check, seconds since epoch."],
  ["vigil_monitor_last_ping_timestamp_seconds", "gauge", 'Time of the heartbeat\'s latest ping (location "server"), seconds since epoch.'],
  ["vigil_monitor_checks_total", "counter", "Checks stored for the monitor at the location."],
  ["vigil_monitor_checks_failed_total", "counter", "Checks stored for the monitor at the location that ended in error."],
  ["vigil_monitor_latency_seconds", "histogram", "Latency of the stored checks (as measured by the probe), seconds."],
  ["vigil_monitor_cert_expiry_days", "gauge", "Days until the TLS certificate seen by the latest check expires (only where known)."],
];
const HEADER = new Map(HELP.map(([name, type, help]) => [name, Buffer.from(`# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`)]));

const STATUSES = ["success", "degraded", "error"] as const;

const ascii = (s: string) => Buffer.from(s, "latin1");
const NAME = {
  info: ascii("vigil_monitor_info{"),
  up: ascii("vigil_monitor_up{"),
  status: ascii("vigil_monitor_status{"),
  last: ascii("vigil_monitor_last_check_timestamp_seconds{"),
  ping: ascii("vigil_monitor_last_ping_timestamp_seconds{"),
  total: ascii("vigil_monitor_checks_total{"),
  failed: ascii("vigil_monitor_checks_failed_total{"),
  bucket: ascii("vigil_monitor_latency_seconds_bucket{"),
  sum: ascii("vigil_monitor_latency_seconds_sum{"),
  count: ascii("vigil_monitor_latency_seconds_count{"),
  cert: ascii("vigil_monitor_cert_expiry_days{"),
};
const CLOSE = ascii("} ");
const NL = 10;
/** A status line's end: the status label, its value (1 for the latest check's, 0 for the others), newline. */
const STATUS_END = STATUSES.map((x) => [0, 1].map((v) => ascii(`,status="${x}"} ${v}\n`)));
const LE = [...LATENCY_BUCKETS_MS.map((b) => ascii(`,le="${b / 1000}"} `)), ascii(',le="+Inf"} ')];
const INFO_END = ascii("} 1\n");
/** Lines of a series set, at most (19, one with a certificate, and its info line). */
const LINES = 21;
/** Bytes of a series set besides its labels, at most: each line's name, closing labels and a value (≤ 24 characters). */
const longest = (xs: Uint8Array[]) => Math.max(...xs.map((x) => x.length));
const PER_SERIES_SET = LINES * (longest(Object.values(NAME)) + longest([CLOSE, ...STATUS_END.flat(), ...LE]) + 25);

/**
 * Bytes of text per piece handed on: small enough to stream (32 pieces for 16 MiB), large enough that passing one
 * costs nothing (with 64 KiB of compressed output at a time, ~5 % less CPU per scrape than 128 KiB and 16 KiB).
 */
const PIECE_BYTES = 512 * 1024;

/**
 * Buffers of pieces that their reader is done with, written into again by later pieces of any scrape: 16 MiB of
 * new buffers per scrape cost 2–20 ms in page faults and collections, the same bytes written again ~0.5 ms.
 */
export class PieceBuffers {
  private readonly free: Buffer<ArrayBuffer>[] = [];
  constructor(private readonly most = 16) {}
  take(size: number): Buffer<ArrayBuffer> {
    const b = this.free.pop();
    return b !== undefined && b.length >= size ? b : Buffer.allocUnsafe(size);
  }
  /** Only once nothing reads the piece any more: its whole buffer is written again. */
  give(piece: Uint8Array<ArrayBuffer>) {
    if (this.free.length < this.most && piece.byteOffset === 0) this.free.push(Buffer.from(piece.buffer));
  }
}

/**
 * Exposition text written straight into buffers of `PIECE_BYTES`, each handed on when full, so that the answer
 * can leave (and be compressed and inflated by the scraper) while the rest is written. Each label set is
 * encoded once, "} " after it, and copied into its lines; the lines of a series set that share name and labels
 * (status, buckets) copy them from its first. Copies are the cost here, so there are as few as the format
 * allows. `labelSets` are the series sets' identities (monitor_id, location), `infos` all their labels,
 * written once each on the info line.
 */
function* render(
  labelSets: string[],
  infos: string[],
  values: SetRow[],
  now: number,
  buffers: PieceBuffers | undefined,
): Generator<Uint8Array<ArrayBuffer>> {
  let labelBytes = 0;
  let longestSet = 0;
  for (let k = 0; k < labelSets.length; k++) {
    const l = Buffer.byteLength(labelSets[k]!) + CLOSE.length;
    labelBytes += l;
    longestSet = Math.max(longestSet, LINES * l + Buffer.byteLength(infos[k]!) + PER_SERIES_SET);
  }
  const scratch = Buffer.allocUnsafe(labelBytes);
  // Per series set: its labels (`open`, for lines that add one) and its labels closed by "} " (`closed`).
  const open: Buffer[] = [];
  const closed: Buffer[] = [];
  for (let k = 0, p = 0; k < labelSets.length; k++) {
    const len = scratch.write(labelSets[k]!, p);
    scratch.set(CLOSE, p + len);
    open.push(scratch.subarray(p, p + len));
    closed.push(scratch.subarray(p, p + len + CLOSE.length));
    p += len + CLOSE.length;
  }
  // A piece always has room for a family's header and a series set's lines, however long its labels.
  const margin = longestSet + Math.max(...[...HEADER.values()].map((h) => h.length));
  const pieceBytes = Math.max(PIECE_BYTES, margin);
  // A new buffer per piece (or one given back): the previous one may still be in the compressor's or the socket's hands.
  const take = () => buffers?.take(pieceBytes) ?? Buffer.allocUnsafe(pieceBytes);
  let buf = take();
  let n = 0;
  const put = (b: Uint8Array) => {
    buf.set(b, n);
    n += b.length;
  };
  // Numbers are ASCII: a byte each, cheaper than a call into the encoder for a few characters.
  const text = (s: string) => {
    for (let i = 0; i < s.length; i++) buf[n++] = s.charCodeAt(i);
  };
  /** A count's digits written from the last: no string made for each of 200,000 values. */
  const digits = (x: number) => {
    if (!Number.isSafeInteger(x) || x < 0) return text(String(x));
    let end = n;
    for (let t = x; t >= 10; t = Math.floor(t / 10)) end++;
    for (let i = end, t = x; i >= n; i--, t = Math.floor(t / 10)) buf[i] = 48 + (t % 10);
    n = end + 1;
  };
  const line = (name: Uint8Array, k: number, value: string | number) => {
    put(name);
    put(closed[k]!);
    if (typeof value === "number") digits(value);
    else text(value);
    buf[n++] = NL;
  };
  /** Writes name and open labels once, then `count` lines, each starting with a copy of them. */
  const lines = (name: Uint8Array, k: number, count: number, end: (i: number) => void) => {
    const from = n;
    put(name);
    put(open[k]!);
    const to = n;
    for (let i = 0; i < count; i++) {
      if (i > 0) {
        buf.copyWithin(n, from, to);
        n += to - from;
      }
      end(i);
    }
  };
  const families: [string, (v: SetRow, k: number) => void, ((v: SetRow) => boolean)?][] = [
    [
      "vigil_monitor_info",
      (_, k) => {
        put(NAME.info);
        n += buf.write(infos[k]!, n);
        put(INFO_END);
      },
    ],
    ["vigil_monitor_up", (v, k) => line(NAME.up, k, v[R.status] === "error" ? "0" : "1")],
    [
      "vigil_monitor_status",
      (v, k) => lines(NAME.status, k, STATUSES.length, (i) => put(STATUS_END[i]![v[R.status] === STATUSES[i] ? 1 : 0]!)),
    ],
    ["vigil_monitor_last_check_timestamp_seconds", (v, k) => line(NAME.last, k, Number(v[R.cron]) / 1000), checked],
    [
      "vigil_monitor_last_ping_timestamp_seconds",
      (v, k) => line(NAME.ping, k, Number(v[R.ping]) / 1000),
      (v) => v[R.kind] === "heartbeat" && v[R.ping] != null,
    ],
    ["vigil_monitor_checks_total", (v, k) => line(NAME.total, k, Number(v[R.total])), checked],
    ["vigil_monitor_checks_failed_total", (v, k) => line(NAME.failed, k, Number(v[R.failed])), checked],
    [
      "vigil_monitor_latency_seconds",
      (v, k) => {
        lines(NAME.bucket, k, LE.length, (i) => {
          put(LE[i]!);
          // +Inf counts every check.
          digits(Number(v[i < LATENCY_BUCKETS_MS.length ? R.buckets + i : R.total]));
          buf[n++] = NL;
        });
        line(NAME.sum, k, String(Number(v[R.sum]) / 1000));
        line(NAME.count, k, Number(v[R.total]));
      },
      checked,
    ],
    [
      "vigil_monitor_cert_expiry_days",
      (v, k) => line(NAME.cert, k, ((Number(v[R.cert]) - now) / 86_400_000).toFixed(2)),
      (v) => v[R.cert] !== null,
    ],
  ];
  for (const [name, write, has] of families) {
    // No header for a family without samples.
    if (has && !values.some(has)) continue;
    for (let k = -1; k < labelSets.length; k++) {
      if (k >= 0 && has && !has(values[k]!)) continue;
      if (n + margin > pieceBytes) {
        yield buf.subarray(0, n);
        buf = take();
        n = 0;
      }
      if (k < 0) put(HEADER.get(name)!);
      else write(values[k]!, k);
    }
  }
  if (n > 0) yield buf.subarray(0, n);
}

/**
 * The workspace's monitors as Prometheus text exposition (0.0.4), as UTF-8: one series set per monitor and
 * location (a heartbeat's location is the server), from one write batch (fold new results, advance the watermark, read) whatever the number of monitors.
 * Resolves once the database has answered; the text is then written piece by piece as the pieces are taken.
 */
export async function prometheusMetrics(
  db: Db,
  workspaceId: number,
  opts: { tagLabels?: string[]; now?: number; buffers?: PieceBuffers } = {},
): Promise<Generator<Uint8Array<ArrayBuffer>>> {
  const tagLabels = opts.tagLabels ?? [];
  const now = opts.now ?? Date.now();
  const withTags = tagLabels.length > 0;
  const results = await writeBatch(db, [
    raw(fold(workspaceId)),
    raw(advance(workspaceId)),
    raw(read(workspaceId, withTags)),
    raw(readHeartbeats(workspaceId, withTags)),
  ]);
  const sets: SetRow[] = [];
  for (const read of [results[2]!, results[3]!])
    for (const row of read.rows) for (const set of JSON.parse(String(row[0])) as SetRow[]) sets.push(set);
  // Monitor by monitor, each one's locations in id order: series stay where they were between scrapes.
  sets.sort((a, b) => Number(a[R.monitorId]) - Number(b[R.monitorId]) || Number(a[R.locationId]) - Number(b[R.locationId]));
  // Few locations, many monitors: each location's labels are built once.
  const places = new Map<unknown, { id: string; info: string }>();
  const labels: string[] = [];
  const infos: string[] = [];
  for (const v of sets) {
    let place = places.get(v[R.locationId]);
    if (place === undefined) {
      const name = escapeLabel(String(v[R.location]));
      place = { id: `",location="${name}"`, info: `",location="${name}",region="${escapeLabel(String(v[R.region]))}"` };
      places.set(v[R.locationId], place);
    }
    labels.push(`monitor_id="${v[R.monitorId]}${place.id}`);
    let l = `monitor_id="${v[R.monitorId]}",monitor_name="${escapeLabel(String(v[R.name]))}",kind="${v[R.kind]}${place.info}`;
    for (const t of tagLabels) l += `,tag_${t}="${escapeLabel(tagValue(v[R.tags]!, t))}"`;
    infos.push(l);
  }
  return render(labels, infos, sets, now, opts.buffers);
}
