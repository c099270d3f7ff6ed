import type { CheckDefinition, CheckResult } from "@vigil/api-contract";
import { runHttpCheck } from "./http";
import { messageOf } from "./net-errors";
import { withRetries } from "./retry";
import { runTcpCheck } from "./tcp";

export { evaluateAssertions, type ResponseView } from "./assertions";
export { JsonPathError, parseJsonPath, queryJsonPath } from "./assertions/jsonpath";
export { MAX_BODY_BYTES } from "./body";
export type { AttemptOptions } from "./budget";
export { detectJsonRpcPing, readJsonRpcReply } from "./jsonrpc";
export { MAX_REDIRECTS } from "./redirect";
export { backoffMs, MIN_ATTEMPT_MS } from "./retry";
export { runHttpCheck, runTcpCheck };

export interface RunCheckOptions {
  signal?: AbortSignal;
  /** Epoch ms the whole check, retries included, must end by (e.g. the end of its schedule slot). */
  deadline?: number;
}

/** Runs one check with its retries. A target's failure, a timeout or an abort is a result, never an exception. */
export async function runCheck(def: CheckDefinition, opts: RunCheckOptions = {}): Promise<CheckResult> {
  const attempt = (timeoutMs: number): Promise<CheckResult> =>
    def.kind === "tcp" ? runTcpCheck(def, { signal: opts.signal, timeoutMs }) : runHttpCheck(def, { signal: opts.signal, timeoutMs });
  try {
    return await withRetries({ retry: def.retry, timeoutMs: def.timeoutMs, deadline: opts.deadline, signal: opts.signal }, attempt);
  } catch (err) {
    // Only a bug of ours gets here; still a result, so one bad check cannot take the probe's loop down.
    return { status: "error", latencyMs: 0, errorMessage: `internal error: ${messageOf(err)}`, attempts: 1 };
  }
}
