// One file: the outbox's segments, group commit, ack cursor and bounds are one crash-safety rule, read together.
import { type FileHandle, mkdir, open, readdir, readFile, rename, truncate, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { IngestResult } from "@vigil/api-contract";
import type { Logger } from "@vigil/service";

/**
 * The outbox: every result goes to disk before it is sent, and leaves only once the server has taken it.
 * Ours, not a queue library's: it must run with no server (no Redis, no database) beside the probe, and its
 * crash rules (group commit, torn last line, ack cursor) are the guarantee itself, so they live where we can test them.
 *
 * Format: numbered segment files `<seq>.jsonl` in the data dir, one IngestResult per JSON line, written
 * append-only. Appends are group-committed: lines gathered for at most `commitMs` are written together
 * and fdatasync'ed once. The sender reads durable lines from the oldest segment on, and after the
 * server's 2xx moves a cursor `{seq, offset, lines}` saved in `ack.json` (write + rename); a segment
 * read to its end is deleted. A crash loses at most the last uncommitted window; a torn last line is
 * skipped on recovery; anything sent twice is deduplicated by the server on the result's ULID.
 * Bounds: total size and age, enforced by dropping whole segments, oldest first, with a logged count.
 * Segments are rolled at 1/16 of the size bound (min 64 KiB) or 1/16 of the age bound, whichever
 * comes first, so both bounds are kept to within about 6 %.
 */

export interface Cursor {
  seq: number;
  /** Byte offset in the segment just after the last acknowledged line. */
  offset: number;
  /** Lines of the segment before `offset`. */
  lines: number;
}

export interface OutboxBatch {
  records: IngestResult[];
  /** Acknowledge with this once the server took `records`. */
  end: Cursor;
}

export type DropReason = "size" | "age" | "unreadable" | "write-error" | "rejected";

export interface OutboxOptions {
  dir: string;
  maxBytes: number;
  maxAgeMs: number;
  /** Group-commit window, ms. */
  commitMs?: number;
  segmentBytes?: number;
  now?: () => number;
  logger: Logger;
  onDrop?(count: number, reason: DropReason): void;
}

interface Segment {
  seq: number;
  path: string;
  /** Durable bytes: always ends on a line break. */
  bytes: number;
  lines: number;
  createdAt: number;
  newestAt: number;
}

const SEGMENT_RE = /^(\d{12})\.jsonl$/;
const ACK_FILE = "ack.json";
const READ_CHUNK = 1 << 20;
const FLUSH_NOW_BYTES = 1 << 20;

const segmentName = (seq: number) => `${String(seq).padStart(12, "0")}.jsonl`;

interface Deferred {
  promise: Promise<boolean>;
  resolve(ok: boolean): void;
}
function deferred(): Deferred {
  let resolve!: (ok: boolean) => void;
  const promise = new Promise<boolean>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Counts whole lines of a segment left by an earlier run; bytes after the last line break are a torn write. */
async function scanSegment(path: string): Promise<{ bytes: number; lines: number; torn: number; mtimeMs: number }> {
  const fh = await open(path, "r");
  try {
    const { size, mtimeMs } = await fh.stat();
    const buf = Buffer.allocUnsafe(READ_CHUNK);
    let lines = 0;
    let lastBreak = -1;
    for (let pos = 0; pos < size; ) {
      const { bytesRead } = await fh.read(buf, 0, READ_CHUNK, pos);
      if (bytesRead === 0) break;
      for (let i = buf.indexOf(10); i !== -1 && i < bytesRead; i = buf.indexOf(10, i + 1)) {
        lines++;
        lastBreak = pos + i;
      }
      pos += bytesRead;
    }
    return { bytes: lastBreak + 1, lines, torn: size - (lastBreak + 1), mtimeMs };
  } finally {
    await fh.close();
  }
}

async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, "r");
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export class Outbox {
  private readonly log: Logger;
  private readonly now: () => number;
  private readonly commitMs: number;
  private readonly segmentBytes: number;
  private readonly segmentAgeMs: number;
  private segments: Segment[];
  private cursor: Cursor;
  private lastSeq: number;
  private active!: Segment;
  private fh: FileHandle | undefined;
  private totalBytes: number;
  private totalLines: number;
  private pending: string[] = [];
  private pendingBytes = 0;
  private pendingDone: Deferred | undefined;
  private commitTimer: NodeJS.Timeout | undefined;
  private ageTimer: NodeJS.Timeout | undefined;
  /** Writes, rolls and drops run one at a time, in order. */
  private chain: Promise<unknown> = Promise.resolve();
  private ackChain: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<() => void>();
  private closed = false;
  /** How far unreadable lines were reported, so a batch read again after a failed send does not count them twice. */
  private badReportedTo: Cursor = { seq: 0, offset: 0, lines: 0 };

  private constructor(
    private readonly opts: OutboxOptions,
    segments: Segment[],
    cursor: Cursor,
  ) {
    this.log = opts.logger;
    this.now = opts.now ?? Date.now;
    this.commitMs = opts.commitMs ?? 25;
    this.segmentBytes = opts.segmentBytes ?? Math.min(16 << 20, Math.max(64 << 10, Math.floor(opts.maxBytes / 16)));
    this.segmentAgeMs = Math.max(1000, Math.floor(opts.maxAgeMs / 16));
    this.segments = segments;
    this.cursor = cursor;
    this.lastSeq = segments.at(-1)?.seq ?? 0;
    this.totalBytes = segments.reduce((n, s) => n + s.bytes, 0);
    this.totalLines = segments.reduce((n, s) => n + s.lines, 0);
  }

  /** Opens (or recovers) the outbox in `opts.dir`. */
  static async open(opts: OutboxOptions): Promise<Outbox> {
    // The monitor cache beside the outbox holds request headers (credentials): owner only.
    await mkdir(opts.dir, { recursive: true, mode: 0o700 });
    const names = (await readdir(opts.dir)).filter((n) => SEGMENT_RE.test(n)).sort();
    const ack = await readAck(opts.dir);
    const segments: Segment[] = [];
    let torn = 0;
    for (const name of names) {
      const seq = Number(SEGMENT_RE.exec(name)![1]);
      const path = join(opts.dir, name);
      const scan = await scanSegment(path);
      if (scan.torn > 0) {
        torn++;
        opts.logger.warn({ segment: name, bytes: scan.torn }, "outbox: skipped a torn last line (the probe stopped mid-write)");
        // Cut it off, so that it is reported once and not again at every start.
        await truncate(path, scan.bytes);
      }
      // Fully acknowledged before a crash, or empty: nothing left to send.
      if (scan.lines === 0 || (ack && (seq < ack.seq || (seq === ack.seq && ack.offset >= scan.bytes)))) {
        await unlink(path).catch(() => {});
        continue;
      }
      segments.push({ seq, path, bytes: scan.bytes, lines: scan.lines, createdAt: scan.mtimeMs, newestAt: scan.mtimeMs });
    }
    if (torn > 0) opts.onDrop?.(torn, "unreadable");
    const first = segments[0];
    const cursor: Cursor =
      first && ack && ack.seq === first.seq ? { ...ack } : { seq: first?.seq ?? (ack?.seq ?? 0) + 1, offset: 0, lines: 0 };
    const outbox = new Outbox(opts, segments, cursor);
    outbox.lastSeq = Math.max(outbox.lastSeq, ack?.seq ?? 0);
    await outbox.roll();
    await outbox.enforceBounds();
    if (segments.length > 1)
      opts.logger.info({ pending: outbox.depth, bytes: outbox.bytes }, "outbox: recovered results not yet acknowledged by the server");
    outbox.ageTimer = setInterval(() => void outbox.enforceBounds(), Math.min(60_000, outbox.segmentAgeMs));
    outbox.ageTimer.unref();
    return outbox;
  }

  /** Results on disk (or about to be) not yet acknowledged. */
  get depth(): number {
    return this.totalLines - this.cursor.lines + this.pending.length;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /** Called after each group commit, e.g. to wake the sender. */
  onCommit(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Queues a result for the next group commit; resolves true once it is on disk (false if it could not be written). */
  append(record: IngestResult): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    const line = `${JSON.stringify(record)}\n`;
    this.pending.push(line);
    this.pendingBytes += line.length;
    this.pendingDone ??= deferred();
    const done = this.pendingDone.promise;
    if (this.pendingBytes >= FLUSH_NOW_BYTES) this.commitSoon(0);
    else this.commitSoon(this.commitMs);
    return done;
  }

  /** Writes whatever is pending now. */
  flush(): Promise<void> {
    if (this.commitTimer) clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    return this.enqueue(() => this.writePending());
  }

  /**
   * Up to `max` durable, unacknowledged results, oldest first (all from one segment).
   * Null when there is nothing to send yet.
   */
  async read(max: number): Promise<OutboxBatch | null> {
    for (;;) {
      const seg = this.segments[0];
      if (!seg) return null;
      const from = this.cursor;
      if (from.offset >= seg.bytes) {
        if (seg === this.active) return null;
        await this.enqueue(async () => {
          if (this.segments[0] === seg) await this.retire(seg);
        });
        continue;
      }
      let parsed: { records: IngestResult[]; consumed: number; lines: number; bad: number };
      try {
        parsed = await this.readFrom(seg, from.offset, max);
      } catch (err) {
        // Dropped (size/age bound) between listing and reading: go on with what is there now.
        if ((err as NodeJS.ErrnoException).code === "ENOENT" && this.segments[0] !== seg) continue;
        throw err;
      }
      if (this.segments[0] !== seg || this.cursor !== from) continue;
      const end: Cursor = { seq: seg.seq, offset: from.offset + parsed.consumed, lines: from.lines + parsed.lines };
      const beyond = end.seq > this.badReportedTo.seq || (end.seq === this.badReportedTo.seq && end.offset > this.badReportedTo.offset);
      if (parsed.bad > 0 && beyond) {
        this.badReportedTo = end;
        this.log.warn({ segment: segmentName(seg.seq), lines: parsed.bad }, "outbox: skipped unreadable lines");
        this.opts.onDrop?.(parsed.bad, "unreadable");
      }
      if (parsed.records.length === 0) {
        await this.ack(end);
        continue;
      }
      return { records: parsed.records, end };
    }
  }

  /** The server took a batch: move the cursor past it and delete segments read to their end. */
  async ack(end: Cursor): Promise<void> {
    const seg = this.segments[0];
    // The segment may have been dropped by a bound meanwhile; then there is nothing to move.
    if (!seg || seg.seq !== end.seq || end.offset <= this.cursor.offset) return;
    this.cursor = end;
    if (seg !== this.active && end.offset >= seg.bytes) {
      await this.enqueue(async () => {
        if (this.segments[0] === seg) await this.retire(seg);
      });
    } else await this.saveAck();
  }

  /** Drops whole segments, oldest first, past the age bound and then past the size bound. */
  enforceBounds(): Promise<void> {
    return this.enqueue(async () => {
      const now = this.now();
      const oldest = now - this.opts.maxAgeMs;
      // A segment's newest result is too old only when nothing was appended for a whole bound: seal it first.
      if (this.active.lines > 0 && this.active.newestAt < oldest) await this.roll();
      let age = 0;
      while (this.segments.length > 1 && this.segments[0]!.newestAt < oldest) age += this.dropOldest();
      let size = 0;
      while (this.segments.length > 1 && this.totalBytes > this.opts.maxBytes) size += this.dropOldest();
      if (age > 0) {
        this.log.warn({ dropped: age, maxAgeHours: this.opts.maxAgeMs / 3_600_000 }, "outbox: dropped results older than the age bound");
        this.opts.onDrop?.(age, "age");
      }
      if (size > 0) {
        this.log.warn({ dropped: size, maxBytes: this.opts.maxBytes }, "outbox: full, dropped the oldest results");
        this.opts.onDrop?.(size, "size");
      }
      if (age + size > 0) await this.saveAck();
    });
  }

  /** Writes what is pending and closes the files; later appends are refused. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flush();
    clearInterval(this.ageTimer);
    await this.chain;
    await this.ackChain;
    await this.fh?.close();
    this.fh = undefined;
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const next = this.chain.then(task);
    this.chain = next.catch((err) => this.log.error({ err }, "outbox: task failed"));
    return next;
  }

  private commitSoon(ms: number): void {
    if (this.commitTimer && ms > 0) return;
    if (this.commitTimer) clearTimeout(this.commitTimer);
    this.commitTimer = setTimeout(() => {
      this.commitTimer = undefined;
      void this.enqueue(() => this.writePending());
    }, ms);
  }

  private async writePending(): Promise<void> {
    const lines = this.pending;
    const done = this.pendingDone;
    if (lines.length === 0) return;
    this.pending = [];
    this.pendingBytes = 0;
    this.pendingDone = undefined;
    const data = Buffer.from(lines.join(""), "utf8");
    const now = this.now();
    if (this.active.bytes > 0 && (this.active.bytes + data.length > this.segmentBytes || now - this.active.createdAt > this.segmentAgeMs)) {
      await this.roll();
    }
    const seg = this.active;
    try {
      await this.fh!.appendFile(data);
      await this.fh!.datasync();
    } catch (err) {
      this.log.error({ err, lost: lines.length }, "outbox: could not write results to disk");
      this.opts.onDrop?.(lines.length, "write-error");
      done?.resolve(false);
      // Whatever part got written is past `bytes` and never read; go on in a fresh file.
      await this.roll().catch(() => {});
      return;
    }
    seg.bytes += data.length;
    seg.lines += lines.length;
    seg.newestAt = now;
    this.totalBytes += data.length;
    this.totalLines += lines.length;
    done?.resolve(true);
    if (this.totalBytes > this.opts.maxBytes) await this.enforceBoundsNow();
    for (const fn of this.listeners) fn();
  }

  /** The size bound inside a running task (enforceBounds would queue behind it). */
  private async enforceBoundsNow(): Promise<void> {
    let size = 0;
    while (this.segments.length > 1 && this.totalBytes > this.opts.maxBytes) size += this.dropOldest();
    if (size === 0) return;
    this.log.warn({ dropped: size, maxBytes: this.opts.maxBytes }, "outbox: full, dropped the oldest results");
    this.opts.onDrop?.(size, "size");
    await this.saveAck();
  }

  private async roll(): Promise<void> {
    if (this.fh) await this.fh.close();
    this.fh = undefined;
    const seq = ++this.lastSeq;
    const path = join(this.opts.dir, segmentName(seq));
    this.fh = await open(path, "a");
    await syncDir(this.opts.dir);
    const now = this.now();
    const seg: Segment = { seq, path, bytes: 0, lines: 0, createdAt: now, newestAt: now };
    this.segments.push(seg);
    this.active = seg;
    if (this.segments.length === 1) this.cursor = { seq, offset: 0, lines: 0 };
  }

  /** Removes the oldest (sealed) segment and returns how many unacknowledged results went with it. */
  private dropOldest(): number {
    const seg = this.segments.shift()!;
    const unacked = seg.lines - (this.cursor.seq === seg.seq ? this.cursor.lines : 0);
    this.forget(seg);
    unlink(seg.path).catch((err) => this.log.error({ err, segment: segmentName(seg.seq) }, "outbox: could not delete a segment"));
    return unacked;
  }

  private async retire(seg: Segment): Promise<void> {
    this.segments.shift();
    this.forget(seg);
    await unlink(seg.path).catch(() => {});
    await this.saveAck();
  }

  private forget(seg: Segment): void {
    this.totalBytes -= seg.bytes;
    this.totalLines -= seg.lines;
    const next = this.segments[0]!;
    this.cursor = { seq: next.seq, offset: 0, lines: 0 };
  }

  private saveAck(): Promise<void> {
    const next = this.ackChain.then(async () => {
      const tmp = join(this.opts.dir, `${ACK_FILE}.tmp`);
      await writeFile(tmp, JSON.stringify(this.cursor));
      await rename(tmp, join(this.opts.dir, ACK_FILE));
    });
    this.ackChain = next.catch((err) => this.log.error({ err }, "outbox: could not save the acknowledged position"));
    return this.ackChain as Promise<void>;
  }

  private async readFrom(seg: Segment, offset: number, max: number) {
    const fh = await open(seg.path, "r");
    try {
      for (let size = READ_CHUNK; ; size *= 2) {
        const length = Math.min(size, seg.bytes - offset);
        const buf = Buffer.allocUnsafe(length);
        const { bytesRead } = await fh.read(buf, 0, length, offset);
        const records: IngestResult[] = [];
        let pos = 0;
        let lines = 0;
        let bad = 0;
        while (records.length < max) {
          const nl = buf.indexOf(10, pos);
          if (nl === -1 || nl >= bytesRead) break;
          const text = buf.toString("utf8", pos, nl);
          pos = nl + 1;
          lines++;
          const parsed = parseLine(text);
          if (parsed) records.push(parsed);
          else bad++;
        }
        // One line longer than the chunk: read a bigger one (durable bytes always end on a line break).
        if (lines === 0 && length < seg.bytes - offset) continue;
        return { records, consumed: pos, lines, bad };
      }
    } finally {
      await fh.close();
    }
  }
}

function parseLine(text: string): IngestResult | null {
  try {
    const parsed = IngestResult.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

async function readAck(dir: string): Promise<Cursor | null> {
  try {
    const raw = JSON.parse(await readFile(join(dir, ACK_FILE), "utf8")) as Partial<Cursor>;
    if ([raw.seq, raw.offset, raw.lines].every((n) => Number.isInteger(n) && (n as number) >= 0)) return raw as Cursor;
  } catch {}
  return null;
}
