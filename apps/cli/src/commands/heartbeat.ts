// `vigil ping` and `vigil run`: report a job's runs to its heartbeat monitor. The ping URL comes from the
// REST API (the user's API key); the pings themselves need no key, and are retried so a server restart loses none.
import { spawn } from "node:child_process";
import type { Ctx } from "../context";
import { CliError } from "../io";
import { MonitorId } from "./delete";

/** What the server keeps of a ping's body; the job's output is cut to its end. */
const BODY_TAIL_BYTES = 10_000;
const PING_ATTEMPTS = 6;

/** The ping URL of a heartbeat named by id or by its entry key. */
async function pingUrlOf(ctx: Ctx, entry: string): Promise<string> {
  const { api } = await ctx.api();
  const asId = MonitorId.safeParse(entry);
  let id: number;
  if (/^\d+$/.test(entry) && asId.success) id = asId.data;
  else {
    const m = (await api.listMonitors()).find((x) => x.key === entry);
    if (!m) throw new CliError(`no monitor with the entry key "${entry}" (see \`vigil list\`)`, 1);
    if (m.kind !== "heartbeat") throw new CliError(`"${entry}" is a ${m.kind} monitor, not a heartbeat`, 1);
    id = m.id;
  }
  const { pingUrl } = await api.heartbeat(id);
  if (pingUrl === null) throw new CliError("this API key may read the heartbeat but not ping it: use a key with the write scope", 1);
  return pingUrl;
}

/** Sends one ping, retrying refused connections and 5xx/429 with backoff (curl --retry style). */
export async function sendPing(url: string, body?: string, { attempts = PING_ATTEMPTS, delayMs = 1000 } = {}): Promise<void> {
  let last = "";
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, Math.min(delayMs * 2 ** (i - 1), 30_000)));
    try {
      const res = await fetch(url, {
        method: body === undefined ? "GET" : "POST",
        body,
        headers: { "user-agent": "vigil-cli", ...(body !== undefined && { "content-type": "text/plain; charset=utf-8" }) },
        signal: AbortSignal.timeout(10_000),
      });
      await res.body?.cancel();
      if (res.ok) return;
      // A 404 will not change by asking again: the token was rotated, or the heartbeat paused or deleted.
      if (res.status === 404) throw new CliError(`${redact(url)}: 404, the heartbeat is paused, deleted or its ping URL was rotated`, 1);
      last = `HTTP ${res.status}`;
    } catch (err) {
      if (err instanceof CliError) throw err;
      last = (err as Error).message;
    }
  }
  throw new CliError(`could not ping ${redact(url)} after ${attempts} attempts: ${last}`, 2);
}

/** The token is the secret: messages show where, not what. */
const redact = (url: string) => url.replace(/\/ping\/[^/]+/, "/ping/<token>");

export type PingFlags = { start?: boolean; fail?: boolean; exit?: string; body?: string };

/** `vigil ping <entry|id> [--start|--fail|--exit N] [--body text]`. */
export async function ping(ctx: Ctx, entry: string, flags: PingFlags): Promise<number> {
  const chosen = [flags.start, flags.fail, flags.exit !== undefined].filter(Boolean).length;
  if (chosen > 1) throw new CliError("give at most one of --start, --fail and --exit", 1);
  let suffix = "";
  if (flags.start) suffix = "/start";
  else if (flags.fail) suffix = "/fail";
  else if (flags.exit !== undefined) {
    if (!/^\d{1,3}$/.test(flags.exit) || Number(flags.exit) > 255)
      throw new CliError(`--exit must be a whole number from 0 to 255, got "${flags.exit}"`, 1);
    suffix = `/${Number(flags.exit)}`;
  }
  const url = await pingUrlOf(ctx, entry);
  await sendPing(url + suffix, flags.body);
  if (!ctx.json) ctx.io.stderr(`pinged ${entry}${suffix ? ` (${suffix.slice(1)})` : ""}\n`);
  return 0;
}

/** Keeps the last `max` bytes written to it. */
class Tail {
  private chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly max: number) {}
  push(b: Buffer) {
    this.chunks.push(b);
    this.size += b.length;
    while (this.size - this.chunks[0]!.length >= this.max) this.size -= this.chunks.shift()!.length;
  }
  text() {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.max)).toString("utf8");
  }
}

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };

/**
 * `vigil run <entry> -- cmd args`: pings start, runs the command (its output passes through), then pings
 * success or its exit code with the tail of its output. Exits with the command's own code.
 */
export async function runWrapped(ctx: Ctx, entry: string, command: string[]): Promise<number> {
  if (command.length === 0) throw new CliError("give the command to run after --, e.g. vigil run backup -- ./backup.sh", 1);
  const url = await pingUrlOf(ctx, entry);
  // A ping that cannot be sent must not stop the job itself.
  const tryPing = (suffix: string, body?: string) =>
    sendPing(url + suffix, body).catch((err: Error) => ctx.io.stderr(`vigil: ${err.message}\n`));
  await tryPing("/start");
  const tail = new Tail(BODY_TAIL_BYTES);
  const code = await new Promise<number>((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: ["inherit", "pipe", "pipe"], cwd: ctx.io.cwd });
    child.stdout.on("data", (b: Buffer) => {
      tail.push(b);
      ctx.io.stdout(b.toString("utf8"));
    });
    child.stderr.on("data", (b: Buffer) => {
      tail.push(b);
      ctx.io.stderr(b.toString("utf8"));
    });
    child.on("error", (err) => {
      tail.push(Buffer.from(`vigil: cannot run ${command[0]}: ${err.message}\n`));
      ctx.io.stderr(`vigil: cannot run ${command[0]}: ${err.message}\n`);
      resolve(127);
    });
    child.on("close", (c, signal) => resolve(c ?? 128 + (SIGNALS[signal ?? ""] ?? 15)));
  });
  const out = tail.text();
  await tryPing(`/${Math.min(code, 255)}`, out === "" ? undefined : out);
  return code;
}
