import { isIP, connect as netConnect, type Socket } from "node:net";
import { type TLSSocket, connect as tlsConnect } from "node:tls";
import { EgressPolicy } from "@vigil/egress";
import { judgeCertificate } from "../../assertions/certificate";
import { latency } from "../../assertions/latency";
import type { CertificateAssertion } from "../../assertions/schema";
import { AttemptBudget, type AttemptOptions } from "../../budget";
import { describePeer } from "../../certificate";
import { allowedAddresses, fixedLookup, formatTarget } from "../../dns";
import { describeConnectError, messageOf } from "../../net-errors";
import { errorResult, judgeOutcomes, roundMs, roundTimings } from "../../result";
import type { CheckResult, CheckTimings } from "../../schema";
import type { TlsCheck } from "./index";
import { startTls } from "./starttls";

type Phase = "dns" | "connect" | "starttls" | "tls";

/** Resolves once `socket` emits `event`; rejects on its error or the budget's abort. */
function once(socket: Socket, event: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => finish(err);
    const onAbort = () => finish(signal.reason as Error);
    const finish = (err?: Error) => {
      socket.off(event, onEvent);
      socket.off("error", onError);
      signal.removeEventListener("abort", onAbort);
      if (err) reject(err);
      else resolve();
    };
    const onEvent = () => finish();
    socket.once(event, onEvent);
    socket.once("error", onError);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Races `work` against the budget so a silent server cannot hold the attempt past its timeout. */
function bounded<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * One attempt at a TLS check: resolve (checked against the egress policy), connect, optionally upgrade
 * with STARTTLS, handshake. The handshake completes even with an untrusted certificate so the result can
 * show it; an untrusted chain then fails unless a `certificate valid` assertion says what to expect.
 */
export async function runTlsCheck(def: TlsCheck, opts: AttemptOptions = {}): Promise<CheckResult> {
  const budget = new AttemptBudget(opts.timeoutMs ?? def.timeoutMs, opts.signal);
  const target = formatTarget(def.host, def.port);
  const t: CheckTimings = { total: 0 };
  let phase: Phase = "dns";
  let socket: Socket | undefined;
  let secure: TLSSocket | undefined;
  const fail = (err: unknown) => {
    const stopped = budget.stopMessage(phase === "starttls" ? `STARTTLS (${def.starttls}) with ${target}` : `TLS ${phase} with ${target}`);
    const message =
      stopped ??
      (phase === "starttls" ? `STARTTLS (${def.starttls}) with ${target} failed: ${messageOf(err)}` : describeConnectError(err, target));
    return errorResult(message, budget.elapsed(), { ...t, total: budget.elapsed() });
  };
  try {
    const addresses = await allowedAddresses(opts.egress ?? EgressPolicy.none, def.host, def.port, budget.signal);
    if (!isIP(def.host)) t.dns = budget.elapsed();
    phase = "connect";
    const connectStart = budget.elapsed();
    const target = { host: def.host, port: def.port, lookup: fixedLookup(addresses), autoSelectFamily: addresses.length > 1 };
    const servername = def.sni ?? (isIP(def.host) ? undefined : def.host);
    const tlsOptions = { ...(servername && { servername }), rejectUnauthorized: false };
    let tlsStart: number;
    if (def.starttls) {
      socket = netConnect(target);
      await once(socket, "connect", budget.signal);
      t.connect = budget.elapsed() - connectStart;
      phase = "starttls";
      await bounded(startTls(socket, def.starttls), budget.signal);
      phase = "tls";
      tlsStart = budget.elapsed();
      secure = tlsConnect({ socket, ...tlsOptions });
    } else {
      // TLS from the first byte: one socket, its TCP connect timed apart from the handshake.
      secure = tlsConnect({ ...target, ...tlsOptions });
      await once(secure, "connect", budget.signal);
      t.connect = budget.elapsed() - connectStart;
      phase = "tls";
      tlsStart = budget.elapsed();
    }
    await once(secure, "secureConnect", budget.signal);
    t.tls = budget.elapsed() - tlsStart;
    const certificate = describePeer(secure);
    const latencyMs = (t.connect ?? 0) + t.tls;
    const assertions = def.assertions.some((a) => a.kind === "certificate" && a.property === "valid")
      ? def.assertions
      : [
          { kind: "certificate", property: "valid", compare: "eq", target: true, severity: "error" } as CertificateAssertion,
          ...def.assertions,
        ];
    const outcomes = assertions.map((a) =>
      a.kind === "certificate" ? judgeCertificate(a, certificate) : latency(a, { latencyMs } as Parameters<typeof latency>[1]),
    );
    const slow = def.degradedAfterMs !== undefined && latencyMs > def.degradedAfterMs;
    const judged = judgeOutcomes(outcomes, slow);
    return {
      ...judged,
      ...(judged.errorMessage && { errorMessage: `TLS: ${judged.errorMessage}` }),
      latencyMs: roundMs(latencyMs),
      attempts: 1,
      timings: roundTimings({ ...t, total: budget.elapsed() }),
      ...(certificate && { certificate }),
    };
  } catch (err) {
    return fail(err);
  } finally {
    secure?.destroy();
    socket?.destroy();
    budget.dispose();
  }
}
