import { allowedAddresses, EgressPolicy } from "@vigil/egress";
import type { ValueAssertion } from "../assertions/schema";
import { AttemptBudget, type AttemptOptions } from "../budget";
import { formatTarget } from "../dns";
import { codeOf, describeConnectError, messageOf } from "../net-errors";
import { errorResult, roundMs } from "../result";
import type { CheckResult } from "../schema";
import { connectionTarget } from "./database";
import { judge, valueText } from "./judge";

export interface DatabaseCheck {
  kind: string;
  connection: string;
  query: string;
  timeoutMs: number;
  degradedAfterMs?: number | undefined;
  assertions: ValueAssertion[];
}

/** Where and how long a driver may connect: always the egress-checked address, never the name again. */
export interface Dial {
  url: URL;
  host: string;
  address: string;
  port: number;
  signal: AbortSignal;
  /** What is left of the attempt's time, in ms. */
  remainingMs: () => number;
  /** Call once connected: splits connect time from query time. */
  connected: () => void;
}

/** A failure the driver reports in the phase it names ("connect", "query"). */
export class PhaseError extends Error {
  constructor(
    readonly phase: "connect" | "query",
    readonly cause: unknown,
  ) {
    super(messageOf(cause));
  }
}

/**
 * One attempt at a database check: parse, resolve and egress-check the connection string's host,
 * then let `query` connect, run the query and return the first row's first value (closing its
 * connection every time, whatever happens).
 */
export async function runDatabaseCheck(
  def: DatabaseCheck,
  spec: { defaultPort: number; label: string },
  opts: AttemptOptions,
  query: (dial: Dial) => Promise<unknown>,
): Promise<CheckResult> {
  const budget = new AttemptBudget(opts.timeoutMs ?? def.timeoutMs, opts.signal);
  const fail = (message: string) => errorResult(message, budget.elapsed(), { total: budget.elapsed() });
  let connectMs: number | undefined;
  try {
    let url: URL;
    let where: ReturnType<typeof connectionTarget>;
    try {
      url = new URL(def.connection);
      where = connectionTarget(def.connection, spec);
    } catch {
      return fail(`${spec.label}: the connection string is not a URL`);
    }
    const target = formatTarget(where.host, where.port);
    let address: string;
    try {
      address = (await allowedAddresses(opts.egress ?? EgressPolicy.none, where.host, where.port, budget.signal))[0]!.address;
    } catch (err) {
      return fail(budget.stopMessage(`${spec.label}: connection to ${target}`) ?? `${spec.label}: ${describeConnectError(err, target)}`);
    }
    const dial: Dial = {
      url,
      host: where.host,
      address,
      port: where.port,
      signal: budget.signal,
      remainingMs: () => Math.max(1, budget.timeoutMs - budget.elapsed()),
      connected: () => {
        connectMs = budget.elapsed();
      },
    };
    let value: unknown;
    const started = budget.elapsed();
    try {
      value = await query(dial);
    } catch (err) {
      const phase = err instanceof PhaseError ? err.phase : connectMs === undefined ? "connect" : "query";
      const cause = err instanceof PhaseError ? err.cause : err;
      const stopped = budget.stopMessage(`${spec.label}: ${phase === "connect" ? `connection to ${target}` : "query"}`);
      if (stopped) return fail(stopped);
      if (phase === "connect" && /^E[A-Z]+$/.test(codeOf(cause) ?? ""))
        return fail(`${spec.label}: ${describeConnectError(cause, target)}`);
      return fail(`${spec.label}: ${phase} failed: ${messageOf(cause)}`);
    }
    const total = budget.elapsed();
    return judge(def, {
      latencyMs: total - started,
      timings: { ...(connectMs !== undefined && { connect: connectMs - started }), total },
      value: valueText(value),
      details: { value: valueText(value).slice(0, 200), ...(connectMs !== undefined && { queryMs: roundMs(total - connectMs) }) },
    });
  } finally {
    budget.dispose();
  }
}
