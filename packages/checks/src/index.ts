import type { EgressPolicy } from "@vigil/egress";
import type { AttemptOptions } from "./budget";
import type { CheckDefinition } from "./kinds";
import { messageOf } from "./net-errors";
import { errorResult } from "./result";
import { withRetries } from "./retry";
import { runners } from "./runners";
import type { CheckResult } from "./schema";

export { evaluateAssertions, type ResponseView } from "./assertions";
export { JsonPathError, parseJsonPath, queryJsonPath } from "./assertions/jsonpath";
export type { AttemptOptions } from "./budget";
export * from "./contract";
export { runDnsCheck } from "./kinds/dns/run";
export { RDAP_RECHECK_MS, runDomainCheck } from "./kinds/domain/run";
export { MAX_BODY_BYTES } from "./kinds/http/body";
export { detectJsonRpcPing, readJsonRpcReply } from "./kinds/http/jsonrpc";
export { MAX_REDIRECTS } from "./kinds/http/redirect";
export { runHttpCheck } from "./kinds/http/run";
export { runPingCheck } from "./kinds/ping/run";
export { runRedisCheck } from "./kinds/redis/run";
export { runTcpCheck } from "./kinds/tcp/run";
export { runTlsCheck } from "./kinds/tls/run";
export { runWebSocketCheck } from "./kinds/websocket/run";
export { backoffMs, MIN_ATTEMPT_MS } from "./retry";

export interface RunCheckOptions {
  signal?: AbortSignal;
  /** What the check may not send bytes to (see AttemptOptions.egress). */
  egress?: EgressPolicy;
  /** Epoch ms the whole check, retries included, must end by (e.g. the end of its schedule slot). */
  deadline?: number;
}

/** Runs one check with its retries. A target's failure, a timeout or an abort is a result, never an exception. */
export async function runCheck(def: CheckDefinition, opts: RunCheckOptions = {}): Promise<CheckResult> {
  const run = runners[def.kind] as (def: CheckDefinition, opts: AttemptOptions) => Promise<CheckResult>;
  const attempt = (timeoutMs: number): Promise<CheckResult> => run(def, { signal: opts.signal, timeoutMs, egress: opts.egress });
  try {
    return await withRetries({ retry: def.retry, timeoutMs: def.timeoutMs, deadline: opts.deadline, signal: opts.signal }, attempt);
  } catch (err) {
    // Only a bug of ours gets here; still a result, so one bad check cannot take the probe's loop down.
    return errorResult(`internal error: ${messageOf(err)}`, 0);
  }
}
