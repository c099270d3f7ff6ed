import { EgressPolicy } from "@vigil/egress";
import { evaluateAssertions, type ResponseView } from "../../assertions";
import { AttemptBudget, type AttemptOptions } from "../../budget";
import { formatTarget } from "../../dns";
import { codeOf, describeConnectError, messageOf } from "../../net-errors";
import { errorResult, judgeOutcomes, roundMs, roundTimings } from "../../result";
import type { CheckResult, CheckTimings } from "../../schema";
import { decodeBody, MAX_BODY_BYTES } from "./body";
import { type ExchangeRequest, type ExchangeResult, exchange, type Phase } from "./exchange";
import type { HttpCheck } from "./index";
import { detectJsonRpcPing, type JsonRpcPing, readJsonRpcReply, replyArrived, withJsonRpcHeaders } from "./jsonrpc";
import { RedirectChain } from "./redirect";

const USER_AGENT = "Vigil-Checks/1.0 (uptime monitor)";

const PHASE_WORDS: Record<Phase, string> = {
  dns: "resolving the host",
  connect: "connecting",
  tls: "during the TLS handshake",
  response: "waiting for the response",
  body: "reading the body",
};

function addTimings(a: CheckTimings | undefined, b: CheckTimings): CheckTimings {
  if (!a) return b;
  const out: CheckTimings = { total: a.total + b.total };
  for (const key of ["dns", "connect", "tls", "firstByte", "download"] as const) {
    if (a[key] !== undefined || b[key] !== undefined) out[key] = (a[key] ?? 0) + (b[key] ?? 0);
  }
  return out;
}

function describeFailure(hop: Extract<ExchangeResult, { ok: false }>, budget: AttemptBudget, url: URL): string {
  const stopped = budget.stopMessage(`request to ${url.href}`);
  if (stopped) return budget.timedOut ? `${stopped} ${PHASE_WORDS[hop.phase]}` : stopped;
  const code = codeOf(hop.error);
  if (code === "UND_ERR_INVALID_ARG") return `invalid request: ${messageOf(hop.error)}`;
  const target = formatTarget(url.hostname.replace(/^\[(.*)\]$/, "$1"), url.port || (url.protocol === "https:" ? 443 : 80));
  if (hop.phase === "dns" || hop.phase === "connect" || hop.phase === "tls") return describeConnectError(hop.error, target);
  if (code?.startsWith("HPE_")) return `invalid HTTP response from ${target}: ${messageOf(hop.error)}`;
  if (code === "UND_ERR_SOCKET" || code === "ECONNRESET")
    return hop.phase === "response"
      ? `connection to ${target} closed before any response`
      : `connection to ${target} closed while reading the body`;
  return `request to ${url.href} failed ${PHASE_WORDS[hop.phase]}: ${messageOf(hop.error)}${code ? ` (${code})` : ""}`;
}

function firstRequest(def: HttpCheck, ping: JsonRpcPing | undefined): ExchangeRequest {
  const hasAgent = Object.keys(def.headers).some((k) => k.toLowerCase() === "user-agent");
  const headers = { ...(!hasAgent && { "user-agent": USER_AGENT }), ...(ping ? withJsonRpcHeaders(def.headers) : def.headers) };
  const url = new URL(def.url);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`unsupported URL scheme ${url.protocol} (use http or https)`);
  // The spec says JSON-RPC checks are POSTs; a GET here is the schema's default, not a choice.
  const method = ping && def.method.toUpperCase() === "GET" ? "POST" : def.method.toUpperCase();
  return { url, method, headers, ...(def.body !== undefined && { body: def.body }) };
}

/** Turns the final response into a result: assertions (plus the JSON-RPC reply check), then degraded or not. */
function judge(
  def: HttpCheck,
  hop: Extract<ExchangeResult, { ok: true }>,
  timings: CheckTimings,
  ping: JsonRpcPing | undefined,
): CheckResult {
  const rawType = hop.headers["content-type"];
  const contentType = Array.isArray(rawType) ? rawType[0] : rawType;
  const body = decodeBody(hop.body, contentType);
  let view: ResponseView = {
    statusCode: hop.statusCode,
    headers: hop.headers,
    body,
    bodyTruncated: hop.truncated,
    latencyMs: timings.total,
    jsonText: false,
    ...(hop.certificate && { certificate: hop.certificate }),
  };
  const reply = ping && readJsonRpcReply(ping, contentType, body);
  if (reply) view = { ...view, body: reply.text ?? body, jsonText: true };
  const outcomes = [...evaluateAssertions(def.assertions, view), ...(reply ? [reply.outcome] : [])];
  const slow = def.degradedAfterMs !== undefined && timings.total > def.degradedAfterMs;
  const { status, errorMessage, assertions } = judgeOutcomes(outcomes, slow);
  return {
    status,
    latencyMs: roundMs(timings.total),
    statusCode: hop.statusCode,
    ...(errorMessage && { errorMessage }),
    timings: roundTimings(timings),
    attempts: 1,
    assertions,
    ...(hop.truncated && { bodyTruncated: true }),
    ...(hop.certificate && { certificate: hop.certificate }),
  };
}

/** One attempt at an HTTP check, redirects included. Latency and timings add up every hop. */
export async function runHttpCheck(def: HttpCheck, opts: AttemptOptions = {}): Promise<CheckResult> {
  const budget = new AttemptBudget(opts.timeoutMs ?? def.timeoutMs, opts.signal);
  try {
    const ping = detectJsonRpcPing(def.body);
    let request: ExchangeRequest;
    try {
      request = firstRequest(def, ping);
    } catch (err) {
      return errorResult(`invalid request: ${messageOf(err)}`, budget.elapsed());
    }
    const chain = new RedirectChain(request, def.secretHeaders);
    let timings: CheckTimings | undefined;
    for (;;) {
      const hop = await exchange(request, {
        signal: budget.signal,
        maxBodyBytes: MAX_BODY_BYTES,
        egress: opts.egress ?? EgressPolicy.none,
        watchBody: ping && ((contentType) => replyArrived(ping, contentType)),
        // Without a `certificate valid` assertion an untrusted certificate ends the handshake: nothing is sent.
        allowUntrusted: def.assertions.some((a) => a.kind === "certificate" && a.property === "valid"),
      });
      timings = addTimings(timings, hop.timings);
      if (!hop.ok) return errorResult(describeFailure(hop, budget, request.url), timings.total, timings);
      const location = hop.headers.location;
      const step = def.followRedirects
        ? chain.follow(request, hop.statusCode, Array.isArray(location) ? location[0] : location)
        : undefined;
      if (!step) return judge(def, hop, timings, ping);
      if ("error" in step) return { ...errorResult(step.error, timings.total, timings), statusCode: hop.statusCode };
      request = step.next;
    }
  } finally {
    budget.dispose();
  }
}
