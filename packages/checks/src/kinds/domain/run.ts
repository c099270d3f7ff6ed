import { EgressPolicy } from "@vigil/egress";
import { AttemptBudget, type AttemptOptions } from "../../budget";
import { daysLeft } from "../../certificate";
import { messageOf } from "../../net-errors";
import { errorResult, roundMs, roundTimings } from "../../result";
import type { CheckResult } from "../../schema";
import { exchange } from "../http/exchange";
import bootstrap from "./bootstrap.json" with { type: "json" };
import type { DomainCheck } from "./index";

/** A healthy registration is asked about again after this long, whatever the monitor's frequency. */
export const RDAP_RECHECK_MS = 6 * 3_600_000;
const MAX_REDIRECTS = 3;
const MAX_CACHED = 10_000;

/** Expiry dates the registries gave, by query URL: only healthy ones, so a renewal after an alert is seen at once. */
const answers = new Map<string, { at: number; expiresAt: number; latencyMs: number }>();

/** Each TLD (or registered suffix) of the shipped IANA bootstrap file → its registry's first RDAP base URL. */
const registryOf = new Map(bootstrap.services.flatMap(([tlds, urls]) => tlds!.map((tld) => [tld, urls![0]!] as const)));

/** The registry's RDAP base URL for `domain` from the shipped IANA bootstrap file (longest matching suffix). */
export function rdapBaseFor(domain: string): string | undefined {
  const labels = domain.split(".");
  for (let i = 0; i < labels.length; i++) {
    const base = registryOf.get(labels.slice(i).join("."));
    if (base) return base;
  }
  return undefined;
}

/** The registration's expiry (epoch ms) from an RDAP domain answer, or undefined when it shows none. */
export function expirationOf(doc: unknown): number | undefined {
  const events = (doc as { events?: unknown })?.events;
  if (!Array.isArray(events)) return undefined;
  const event = events.find((e) => (e as { eventAction?: unknown })?.eventAction === "expiration") as { eventDate?: unknown } | undefined;
  const at = typeof event?.eventDate === "string" ? Date.parse(event.eventDate) : Number.NaN;
  return Number.isFinite(at) ? at : undefined;
}

type Lookup = { ok: true; expiresAt: number; latencyMs: number } | { ok: false; message: string; latencyMs: number };

async function lookUp(def: DomainCheck, url: URL, budget: AttemptBudget, egress: EgressPolicy): Promise<Lookup> {
  let at = url;
  for (let hop = 0; ; hop++) {
    const res = await exchange(
      {
        url: at,
        method: "GET",
        headers: { accept: "application/rdap+json, application/json", "user-agent": "Vigil-Checks/1.0 (uptime monitor)" },
      },
      { signal: budget.signal, maxBodyBytes: 1 << 20, egress },
    );
    const latencyMs = budget.elapsed();
    if (!res.ok) {
      const stopped = budget.stopMessage(`RDAP query to ${at.origin}`);
      return { ok: false, message: stopped ?? `RDAP query to ${at.origin} failed: ${messageOf(res.error)}`, latencyMs };
    }
    const location = res.headers.location;
    if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === "string" && hop < MAX_REDIRECTS) {
      at = new URL(location, at);
      if (at.protocol !== "https:" && at.protocol !== "http:")
        return { ok: false, message: `RDAP redirect to ${at.protocol} refused`, latencyMs };
      continue;
    }
    if (res.statusCode === 404)
      return { ok: false, message: `${def.domain} not found in the registry (RDAP 404 from ${at.origin})`, latencyMs };
    if (res.statusCode !== 200) return { ok: false, message: `RDAP server ${at.origin} answered ${res.statusCode}`, latencyMs };
    let doc: unknown;
    try {
      doc = JSON.parse(res.body.toString("utf8"));
    } catch {
      return { ok: false, message: `RDAP answer from ${at.origin} is not JSON`, latencyMs };
    }
    const expiresAt = expirationOf(doc);
    if (expiresAt === undefined) return { ok: false, message: `the registry shows no expiration date for ${def.domain}`, latencyMs };
    return { ok: true, expiresAt, latencyMs };
  }
}

/**
 * One attempt at a domain check: the registration's expiry from the registry's RDAP server, judged
 * against alertDays (error) and warnDays (degraded). A healthy answer is reused for 6 hours.
 */
export async function runDomainCheck(def: DomainCheck, opts: AttemptOptions = {}): Promise<CheckResult> {
  const base = def.rdapUrl ?? rdapBaseFor(def.domain);
  if (!base) return errorResult(`domain: no RDAP server known for ${def.domain}; set the monitor's rdapUrl`, 0);
  const url = new URL(`domain/${encodeURIComponent(def.domain)}`, base.endsWith("/") ? base : `${base}/`);
  const key = url.href;
  const now = Date.now();
  const cached = answers.get(key);
  let found: Lookup;
  if (cached && now - cached.at < RDAP_RECHECK_MS) {
    found = { ok: true, expiresAt: cached.expiresAt, latencyMs: cached.latencyMs };
  } else {
    const budget = new AttemptBudget(opts.timeoutMs ?? def.timeoutMs, opts.signal);
    try {
      found = await lookUp(def, url, budget, opts.egress ?? EgressPolicy.none);
    } finally {
      budget.dispose();
    }
  }
  if (!found.ok) return errorResult(`domain: ${found.message}`, found.latencyMs, { total: found.latencyMs });
  const left = daysLeft(found.expiresAt, now);
  const status = left < def.alertDays ? "error" : def.warnDays !== undefined && left < def.warnDays ? "degraded" : "success";
  if (status === "success" && !cached) {
    if (answers.size >= MAX_CACHED) answers.delete(answers.keys().next().value!);
    answers.set(key, { at: now, expiresAt: found.expiresAt, latencyMs: found.latencyMs });
  } else if (status !== "success") answers.delete(key);
  const when = new Date(found.expiresAt).toISOString().slice(0, 10);
  const limit = status === "error" ? def.alertDays : def.warnDays;
  return {
    status,
    latencyMs: roundMs(found.latencyMs),
    attempts: 1,
    timings: roundTimings({ total: found.latencyMs }),
    ...(status !== "success" && {
      errorMessage:
        left < 0
          ? `domain: ${def.domain} expired on ${when}`
          : `domain: ${def.domain} expires in ${left} days (${when}), under ${limit} days`,
    }),
    assertions: [{ kind: "expiresIn", ok: status === "success", message: `domain expires in ${left} days (${when})` }],
  };
}
