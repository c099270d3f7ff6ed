import { Resolver } from "node:dns/promises";
import { EgressPolicy } from "@vigil/egress";
import { latency } from "../../assertions/latency";
import { AttemptBudget, type AttemptOptions } from "../../budget";
import { allowedAddresses, formatTarget } from "../../dns";
import { codeOf, describeConnectError } from "../../net-errors";
import { errorResult, judgeOutcomes, roundMs, roundTimings } from "../../result";
import type { AssertionOutcome, CheckResult } from "../../schema";
import type { DnsCheck, RecordType } from "./index";
import { judgeAnswer } from "./judge";

/** c-ares' error codes that are a DNS response code rather than a failure to get one. */
const RCODE_OF: Record<string, string> = {
  ENOTFOUND: "NXDOMAIN",
  ENODATA: "NOERROR",
  ESERVFAIL: "SERVFAIL",
  EREFUSED: "REFUSED",
  ENOTIMP: "NOTIMP",
  EFORMERR: "FORMERR",
};

const lower = (s: string) => s.toLowerCase().replace(/\.$/, "");

/** One query of `type`, its records written as a zone file would (names lower-case, no trailing dot). */
async function query(r: Resolver, name: string, type: RecordType): Promise<string[]> {
  switch (type) {
    case "A":
      return r.resolve4(name);
    case "AAAA":
      return r.resolve6(name);
    case "CNAME":
      return (await r.resolveCname(name)).map(lower);
    case "NS":
      return (await r.resolveNs(name)).map(lower);
    case "MX":
      return (await r.resolveMx(name)).map((m) => `${m.priority} ${lower(m.exchange)}`);
    case "TXT":
      return (await r.resolveTxt(name)).map((chunks) => chunks.join(""));
    case "SOA": {
      const s = await r.resolveSoa(name);
      return [`${lower(s.nsname)} ${lower(s.hostmaster)} ${s.serial} ${s.refresh} ${s.retry} ${s.expire} ${s.minttl}`];
    }
    case "CAA":
      return (await r.resolveCaa(name)).map((c) => {
        const [tag, value] = Object.entries(c).find(([k]) => k !== "critical") ?? ["", ""];
        return `${c.critical} ${tag} "${value}"`;
      });
    case "SRV":
      return (await r.resolveSrv(name)).map((s) => `${s.priority} ${s.weight} ${s.port} ${lower(s.name)}`);
  }
}

/** Without a stated rcode the answer must be NOERROR with at least one record (or what the assertions say of it). */
function implicitFailure(def: DnsCheck, got: { rcode: string; answers: string[] }): string | undefined {
  if (def.assertions.some((a) => a.kind === "rcode")) return undefined;
  if (got.rcode !== "NOERROR") return got.rcode;
  if (got.answers.length === 0 && !def.assertions.some((a) => a.kind === "answer" || a.kind === "answerCount"))
    return `no ${def.recordType} records`;
  return undefined;
}

/**
 * One attempt at a DNS check: a single query (UDP, retried over TCP when the answer is truncated) to the
 * given resolver, checked against the egress policy, or to the probe's system resolvers.
 */
export async function runDnsCheck(def: DnsCheck, opts: AttemptOptions = {}): Promise<CheckResult> {
  const budget = new AttemptBudget(opts.timeoutMs ?? def.timeoutMs, opts.signal);
  const question = `${def.name} ${def.recordType}`;
  const via = def.resolver ? formatTarget(def.resolver.host, def.resolver.port) : "the system resolver";
  const resolver = new Resolver({ timeout: Math.max(1, Math.ceil(budget.timeoutMs)), tries: 1 });
  const cancel = () => resolver.cancel();
  budget.signal.addEventListener("abort", cancel, { once: true });
  try {
    if (def.resolver) {
      let addresses: { address: string }[];
      try {
        addresses = await allowedAddresses(opts.egress ?? EgressPolicy.none, def.resolver.host, def.resolver.port, budget.signal);
      } catch (err) {
        const stopped = budget.stopMessage(`DNS: resolving the resolver ${via}`);
        return errorResult(stopped ?? `DNS: ${describeConnectError(err, via)}`, budget.elapsed(), { total: budget.elapsed() });
      }
      resolver.setServers(addresses.map((a) => formatTarget(a.address, def.resolver!.port)));
    }
    const started = performance.now();
    let answers: string[] = [];
    let rcode = "NOERROR";
    try {
      answers = await query(resolver, def.name, def.recordType);
    } catch (err) {
      const code = codeOf(err) ?? "";
      if (!(code in RCODE_OF)) {
        const stopped = budget.stopMessage(`DNS: query ${question} to ${via}`);
        const why = code === "ECANCELLED" || code === "ETIMEOUT" ? "no answer" : code || String(err);
        return errorResult(stopped ?? `DNS: ${why} from ${via} for ${question}`, budget.elapsed(), { total: budget.elapsed() });
      }
      rcode = RCODE_OF[code]!;
    }
    const took = performance.now() - started;
    const timings = roundTimings({ dns: took, total: budget.elapsed() });
    const implicit = implicitFailure(def, { rcode, answers });
    if (implicit) return { ...errorResult(`DNS: ${implicit} for ${def.name}`, took), timings };
    const outcomes: AssertionOutcome[] = def.assertions.map((a) =>
      a.kind === "latency"
        ? latency(a, { latencyMs: took } as Parameters<typeof latency>[1])
        : judgeAnswer(a, { rcode, answers }, def.recordType),
    );
    const judged = judgeOutcomes(outcomes, def.degradedAfterMs !== undefined && took > def.degradedAfterMs);
    return {
      ...judged,
      ...(judged.errorMessage && { errorMessage: `DNS: ${judged.errorMessage} for ${question}` }),
      latencyMs: roundMs(took),
      attempts: 1,
      timings,
    };
  } finally {
    budget.signal.removeEventListener("abort", cancel);
    budget.dispose();
  }
}
