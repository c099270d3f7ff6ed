// Custom domains: a page's claim is served only once the claimant proves control of the domain, by a
// file served on the domain or a TXT record in its DNS. See docs/security.md, "Custom domains".
import { randomBytes } from "node:crypto";
import { Resolver } from "node:dns/promises";
import type { DomainVerification } from "@vigil/api-contract";
import { type Db, statusPage } from "@vigil/db-schema";
import { type EgressPolicy, EgressRefusedError, egressDispatcher } from "@vigil/egress";
import { and, eq, isNotNull, ne } from "drizzle-orm";
import { request } from "undici";
import { type Actor, audited } from "../audit";
import { ValidationError } from "../errors";
import { type PageRow, pageRow } from "./common";

/** What the claimant publishes, and where the claim stands: the API's shape. */
export type { DomainVerification };

export const DOMAIN_PROOF_PATH = "/.well-known/vigil-domain-verification/";
const TXT_LABEL = "_vigil";
const TXT_KEY = "vigil-domain-verification";
/** The file holds a 32-character token: anything much longer is not it. */
const BODY_CAP = 512;
const TIMEOUT_MS = 5_000;

/** A fresh token for every claim: a token proves this claim only, never another page's. */
export const newDomainToken = (): string => randomBytes(16).toString("hex");

export function domainVerification(
  row: Pick<PageRow, "customDomain" | "customDomainToken" | "customDomainVerifiedAt" | "customDomainCheckedAt" | "customDomainError">,
): DomainVerification | null {
  const { customDomain: domain, customDomainToken: token } = row;
  if (!domain || !token) return null;
  return {
    state: row.customDomainVerifiedAt !== null ? "verified" : row.customDomainError ? "failed" : "pending",
    token,
    httpUrl: `http://${domain}${DOMAIN_PROOF_PATH}${token}`,
    txtName: `${TXT_LABEL}.${domain}`,
    txtValue: `${TXT_KEY}=${token}`,
    verifiedAt: row.customDomainVerifiedAt,
    checkedAt: row.customDomainCheckedAt,
    error: row.customDomainError,
  };
}

/** The columns a new claim (or no claim) sets: unverified, with its own token. */
export const claimColumns = (domain: string | null) => ({
  customDomain: domain,
  customDomainToken: domain ? newDomainToken() : null,
  customDomainVerifiedAt: null,
  customDomainCheckedAt: null,
  customDomainError: null,
});

export interface DomainCheckOptions {
  /** What the check may not reach: the instance's own database, Redis and analytics. */
  egress: EgressPolicy;
  timeoutMs?: number;
  /** For tests: connect to this `host:port` instead of the domain's address (the Host header stays the domain). */
  connectTo?: string;
  /** DNS servers for the TXT lookup (`ip` or `ip:port`); unset: the system's. */
  dnsServers?: string[];
}

/** null when `domain` serves `token` at its proof URL, else why not. */
async function httpProof(domain: string, token: string, opts: DomainCheckOptions, timeoutMs: number): Promise<string | null> {
  const url = `http://${opts.connectTo ?? domain}${DOMAIN_PROOF_PATH}${token}`;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await request(url, { headers: { host: domain }, signal, dispatcher: egressDispatcher(opts.egress) });
    if (res.statusCode !== 200) {
      await res.body.dump();
      return `http://${domain}${DOMAIN_PROOF_PATH}… answered HTTP ${res.statusCode} (it must answer 200 with the token, without a redirect)`;
    }
    let body = "";
    const decoder = new TextDecoder();
    for await (const chunk of res.body) {
      body += decoder.decode(chunk, { stream: true });
      if (body.length > BODY_CAP)
        return `http://${domain}${DOMAIN_PROOF_PATH}… answered more than ${BODY_CAP} bytes; it must answer the token only`;
    }
    return body.trim() === token ? null : `http://${domain}${DOMAIN_PROOF_PATH}… answered something other than this page's token`;
  } catch (err) {
    if (err instanceof EgressRefusedError) return err.message;
    if (signal.aborted) return `http://${domain} did not answer within ${timeoutMs} ms`;
    const { code, message } = err as NodeJS.ErrnoException;
    const why =
      code === "ENOTFOUND" || code === "EAI_AGAIN"
        ? "the name does not resolve"
        : code === "ECONNREFUSED"
          ? "connection refused"
          : (code ?? message);
    return `http://${domain} could not be reached (${why})`;
  }
}

/** null when `_vigil.<domain>` holds the TXT record, else why not. */
async function txtProof(domain: string, token: string, opts: DomainCheckOptions, timeoutMs: number): Promise<string | null> {
  const name = `${TXT_LABEL}.${domain}`;
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (opts.dnsServers) resolver.setServers(opts.dnsServers);
  try {
    const records = (await resolver.resolveTxt(name)).map((parts) => parts.join(""));
    return records.includes(`${TXT_KEY}=${token}`) ? null : `the TXT records of ${name} do not include ${TXT_KEY}=${token}`;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOTFOUND" || code === "ENODATA") return `${name} has no TXT record`;
    return `the TXT lookup of ${name} failed: ${code ?? (err as Error).message}`;
  }
}

/** Checks both proofs at once; null as soon as either holds, else both reasons, one a line. */
export function checkDomainProof(domain: string, token: string, opts: DomainCheckOptions): Promise<string | null> {
  const timeoutMs = opts.timeoutMs ?? TIMEOUT_MS;
  const checks = [httpProof(domain, token, opts, timeoutMs), txtProof(domain, token, opts, timeoutMs)];
  return new Promise((resolve) => {
    for (const check of checks) void check.then((reason) => reason === null && resolve(null));
    void Promise.all(checks).then((reasons) => resolve(reasons.includes(null) ? null : reasons.join("\n")));
  });
}

/**
 * Checks the page's claim now ("Verify now", `POST /v1/status-pages/:id/domain/verify`). A proof makes
 * this page the domain's only holder: another page holding it loses it (the proof is current, theirs
 * is not). A failed check records why; an already verified domain stays verified, so a passing DNS
 * hiccup does not take a live page down.
 */
export async function verifyCustomDomain(
  db: Db,
  workspaceId: number,
  pageId: number,
  actor: Actor,
  opts: DomainCheckOptions,
): Promise<DomainVerification> {
  const claim = await pageRow(db, workspaceId, pageId);
  if (!claim.customDomain || !claim.customDomainToken)
    throw new ValidationError("customDomain: this page has no custom domain to verify", [
      { path: "customDomain", message: "this page has no custom domain to verify" },
    ]);
  const { customDomain: domain, customDomainToken: token } = claim;
  const failure = await checkDomainProof(domain, token, opts);
  const row = await audited(db, workspaceId, actor, async (tx, audit) => {
    const now = Date.now();
    const current = await pageRow(tx, workspaceId, pageId);
    // The claim changed while we checked: the proof was for a claim that no longer exists.
    if (current.customDomain !== domain || current.customDomainToken !== token) return current;
    if (failure !== null) {
      const [updated] = await tx
        .update(statusPage)
        .set({ customDomainCheckedAt: now, customDomainError: failure })
        .where(eq(statusPage.id, pageId))
        .returning();
      return updated!;
    }
    await tx
      .update(statusPage)
      .set({
        customDomainVerifiedAt: null,
        customDomainError: `another status page proved ${domain} on ${new Date(now).toISOString()}`,
      })
      .where(and(eq(statusPage.customDomain, domain), ne(statusPage.id, pageId), isNotNull(statusPage.customDomainVerifiedAt)));
    const [updated] = await tx
      .update(statusPage)
      .set({ customDomainVerifiedAt: current.customDomainVerifiedAt ?? now, customDomainCheckedAt: now, customDomainError: null })
      .where(eq(statusPage.id, pageId))
      .returning();
    if (current.customDomainVerifiedAt === null)
      await audit({
        action: "status_page.domain.verify",
        targetType: "status_page",
        targetId: pageId,
        metadata: { domain },
      });
    return updated!;
  });
  return domainVerification(row)!;
}
