import { spawn } from "node:child_process";
import { allowedAddresses, EgressPolicy, EgressRefusedError } from "@vigil/egress";
import { AttemptBudget, type AttemptOptions } from "../../budget";
import { DnsLookupError } from "../../dns";
import { messageOf } from "../../net-errors";
import { errorResult, roundMs } from "../../result";
import type { CheckResult } from "../../schema";
import { judge } from "../judge";
import type { PingCheck } from "./index";

/** The system's ping (iputils): real ICMP without the probe holding a raw socket of its own. */
export const PING_COMMAND = "ping";

export interface PingOutput {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** The command could not start (not installed). */
  spawnError?: Error;
}

/** Sends `packets` echo requests to `address` (0.2 s apart, iputils' shortest for everyone); stops when `signal` aborts. */
export function runPing(
  address: string,
  family: 4 | 6,
  packets: number,
  packetTimeoutMs: number,
  signal: AbortSignal,
): Promise<PingOutput> {
  return new Promise((resolve) => {
    const args = ["-n", `-${family}`, "-c", String(packets), "-i", "0.2", "-W", (packetTimeoutMs / 1000).toFixed(3), address];
    const child = spawn(PING_COMMAND, args, { env: { ...process.env, LC_ALL: "C" }, signal, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    child.once("error", (err) => {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") resolve({ exitCode: null, stdout, stderr, spawnError: err });
    });
    child.once("close", (code) => resolve({ exitCode: code, stdout, stderr }));
  });
}

export interface PingStats {
  sent: number;
  received: number;
  /** Round trips of the replies, in milliseconds. */
  rtts: number[];
}

/** The replies' round trips and the summary's counts from iputils' output (LC_ALL=C). */
export function parsePing(stdout: string, packets: number): PingStats {
  const rtts = [...stdout.matchAll(/icmp_seq=\d+ .*?time[=<]([\d.]+) ms/g)].map((m) => Number(m[1]));
  const summary = /(\d+) packets transmitted, (\d+) (?:packets )?received/.exec(stdout);
  return summary ? { sent: Number(summary[1]), received: Number(summary[2]), rtts } : { sent: packets, received: rtts.length, rtts };
}

const percent = (part: number, whole: number) => Math.round((part / whole) * 1000) / 10;

/** One attempt at a ping check: resolve (egress-checked), send the packets, judge loss and round trips. */
export async function runPingCheck(def: PingCheck, opts: AttemptOptions = {}): Promise<CheckResult> {
  const budget = new AttemptBudget(opts.timeoutMs ?? def.timeoutMs, opts.signal);
  const fail = (message: string) => errorResult(message, budget.elapsed(), { total: budget.elapsed() });
  try {
    let address: { address: string; family: number };
    try {
      // ICMP has no port: only a deny rule covering every port of an address refuses it.
      address = (await allowedAddresses(opts.egress ?? EgressPolicy.none, def.host, 0, budget.signal))[0]!;
    } catch (err) {
      if (err instanceof DnsLookupError || err instanceof EgressRefusedError) return fail(`ping: ${err.message}`);
      return fail(budget.stopMessage(`ping: DNS lookup for ${def.host}`) ?? `ping: ${messageOf(err)}`);
    }
    const dns = budget.elapsed();
    const out = await runPing(address.address, address.family === 6 ? 6 : 4, def.packets, def.packetTimeoutMs, budget.signal);
    const stopped = budget.stopMessage(`ping of ${def.host}`);
    if (stopped) return fail(stopped);
    if (out.spawnError) return fail("ping: the system's ping command is missing (install iputils-ping)");
    const stats = parsePing(out.stdout, def.packets);
    if (out.exitCode === 2 || stats.sent === 0) {
      const said =
        out.stderr
          .trim()
          .split("\n")[0]
          ?.replace(/^ping: /, "") || `exit code ${out.exitCode}`;
      return fail(`ping: ${said} (${def.host})`);
    }
    const lost = stats.sent - stats.received;
    const loss = percent(lost, stats.sent);
    if (stats.received === 0) return fail(`ping: 100 % loss (${lost}/${stats.sent}) to ${def.host}`);
    const min = Math.min(...stats.rtts);
    const max = Math.max(...stats.rtts);
    const avg = stats.rtts.reduce((a, b) => a + b, 0) / stats.rtts.length;
    return judge(def, {
      latencyMs: avg,
      timings: { dns, total: budget.elapsed() },
      packetLossPercent: loss,
      details: {
        packetLoss: loss,
        sent: stats.sent,
        received: stats.received,
        rttMin: roundMs(min),
        rttAvg: roundMs(avg),
        rttMax: roundMs(max),
      },
    });
  } finally {
    budget.dispose();
  }
}
