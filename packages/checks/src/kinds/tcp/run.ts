import type { LookupAddress } from "node:dns";
import { connect, isIP } from "node:net";
import { AttemptBudget, type AttemptOptions } from "../../budget";
import { fixedLookup, formatTarget, resolveHost } from "../../dns";
import { describeConnectError } from "../../net-errors";
import { errorResult, roundMs, roundTimings } from "../../result";
import type { CheckResult } from "../../schema";
import type { TcpCheck } from "./index";

type Connected = { ok: true; connectMs: number } | { ok: false; error: unknown };

/** Opens one TCP connection and closes it at once; resolves (never rejects) when it connects, fails or is aborted. */
function connectOnce(host: string, port: number, addresses: LookupAddress[] | undefined, signal: AbortSignal): Promise<Connected> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect({
      host,
      port,
      // DNS already ran (and was timed) separately; hand its answer over so connect time is connect time only.
      ...(addresses && { lookup: fixedLookup(addresses), autoSelectFamily: addresses.length > 1 }),
    });
    const finish = (outcome: Connected) => {
      signal.removeEventListener("abort", onAbort);
      socket.destroy();
      resolve(outcome);
    };
    const onAbort = () => finish({ ok: false, error: signal.reason });
    socket.once("connect", () => finish({ ok: true, connectMs: performance.now() - started }));
    socket.once("error", (error) => finish({ ok: false, error }));
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** One attempt at a TCP check: DNS (timed apart), then connect; latency is the connect time. */
export async function runTcpCheck(def: TcpCheck, opts: AttemptOptions = {}): Promise<CheckResult> {
  const budget = new AttemptBudget(opts.timeoutMs ?? def.timeoutMs, opts.signal);
  const target = formatTarget(def.host, def.port);
  const fail = (err: unknown, dns?: number) =>
    errorResult(budget.stopMessage(`connection to ${target}`) ?? describeConnectError(err, target), budget.elapsed(), {
      ...(dns !== undefined && { dns }),
      total: budget.elapsed(),
    });
  try {
    let addresses: LookupAddress[] | undefined;
    let dns: number | undefined;
    if (!isIP(def.host)) {
      try {
        addresses = await resolveHost(def.host, budget.signal);
      } catch (err) {
        return fail(err);
      }
      dns = budget.elapsed();
    }
    const outcome = await connectOnce(def.host, def.port, addresses, budget.signal);
    if (!outcome.ok) return fail(outcome.error, dns);
    const latencyMs = roundMs(outcome.connectMs);
    const slow = def.degradedAfterMs !== undefined && outcome.connectMs > def.degradedAfterMs;
    return {
      status: slow ? "degraded" : "success",
      latencyMs,
      attempts: 1,
      timings: roundTimings({ ...(dns !== undefined && { dns }), connect: outcome.connectMs, total: budget.elapsed() }),
    };
  } finally {
    budget.dispose();
  }
}
