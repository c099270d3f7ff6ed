import type { Db } from "@vigil/db-schema";
import { type NotifierEnv, type NotifyOptions, notify, type SendResult } from "@vigil/notifier";
import type { RateLimiter } from "@vigil/rate-limit";
import { type Actor, auditInsert } from "../audit";
import { RATE_LIMITS } from "../rate-limits";
import { channelDestination, getChannelForSending } from "./channels";

/** What a test shows of the receiver's answer: enough to see what it objected to, not a page of it. */
export const TEST_ANSWER_CHARS = 200;

/** The channel's own secrets as they may come back in an answer: whole values, and a URL's credential parts. */
function secretsOf(config: unknown, out: Set<string> = new Set()): Set<string> {
  if (typeof config === "string") {
    if (config.length >= 10) out.add(config);
    if (/^https?:\/\//i.test(config) && URL.canParse(config)) {
      const u = new URL(config);
      for (const part of [u.username, u.password, ...u.pathname.split("/"), ...u.searchParams.values()])
        if (part.length >= 8) out.add(decodeURIComponent(part));
    }
  } else if (Array.isArray(config)) for (const v of config) secretsOf(v, out);
  else if (config && typeof config === "object") for (const v of Object.values(config)) secretsOf(v, out);
  return out;
}

const CREDENTIAL_WORD = String.raw`[\w-]*(?:token|key|secret|password|passwd|pwd|signature|auth|session|cookie|credential)[\w-]*`;
const REDACTIONS: [RegExp, string][] = [
  // "Bearer abc…", "Basic abc…": the scheme stays, the credential goes.
  [/\b(bearer|basic|token)(\s+)[\w.~+/=-]{6,}/gi, "$1$2***"],
  // token=…, "api_key": "…", password: …, in query strings, JSON and plain text alike.
  [new RegExp(String.raw`(${CREDENTIAL_WORD}["']?\s*[:=]\s*["']?)(?!(?:bearer|basic)\s)[^\s"'&,;}<]+`, "gi"), "$1***"],
  // A URL's user:password@.
  [/(\/\/[^/\s:@]+:)[^/\s@]+@/g, "$1***@"],
];

/** `error` as a test shows it: the receiver's status, then at most TEST_ANSWER_CHARS of its answer, secrets removed. */
export function testAnswer(error: string, config: unknown): string {
  let text = error;
  // Longest first: a secret containing another is removed whole.
  for (const secret of [...secretsOf(config)].sort((a, b) => b.length - a.length)) text = text.replaceAll(secret, "***");
  for (const [re, to] of REDACTIONS) text = text.replace(re, to);
  const m = /^((?:HTTP|SMTP) [^:]+: )([\s\S]*)$/.exec(text);
  const [prefix, answer] = m ? [m[1]!, m[2]!] : ["", text];
  return prefix + (answer.length > TEST_ANSWER_CHARS ? `${answer.slice(0, TEST_ANSWER_CHARS - 1)}…` : answer);
}

/** What a channel test sends with: the notifier's settings, where it may not connect, and the workspace's budget. */
export interface TestSending {
  env: NotifierEnv;
  egress: NotifyOptions["egress"];
  limiter: RateLimiter;
}

/**
 * Sends a test message through the channel's stored config, on the same path alerts take (`egress`
 * included: a channel aimed at the instance's own endpoints is refused), and returns the provider's
 * answer; the audit log records who tested it, where it went and what came back. Another workspace's
 * channel is not found. Only stored channels are tested: no draft meets a stored secret here.
 * A workspace's tests are rate limited (RATE_LIMITS.channelTest): the operator's own mail sender, SMS
 * account and bots must not become a spam cannon; beyond it a RateLimitedError, and nothing is sent.
 */
export async function sendTestNotification(
  db: Db,
  workspaceId: number,
  id: number,
  actor: Actor,
  { env, egress, limiter }: TestSending,
): Promise<SendResult> {
  const row = await getChannelForSending(db, workspaceId, id);
  await limiter.take(RATE_LIMITS.channelTest, String(workspaceId));
  // A test never speaks of a real monitor: a receiver that deduplicates or opens incidents by
  // monitor id must not mistake it for one (it also carries `x-vigil-event: test`).
  const monitor = { id: 0, name: `Vigil test notification for "${row.name}"`, url: env.DASHBOARD_URL };
  const target = channelDestination(row.kind, row.config);
  const record = (outcome: string, statusCode?: number) =>
    auditInsert(db, {
      workspaceId,
      actor,
      action: "channel.test",
      targetType: "channel",
      targetId: id,
      metadata: { kind: row.kind, ...(target && { target }), outcome, ...(statusCode !== undefined && { statusCode }) },
    });
  let res: SendResult;
  try {
    res = await notify(row, { type: "test", monitor, cronTimestamp: Date.now() }, env, { egress });
  } catch (err) {
    await record("not sent");
    throw err;
  }
  await record(res.ok ? "delivered" : "failed", res.status);
  return res.ok ? res : { ...res, error: testAnswer(res.error, row.config) };
}
