// Subscribers that are endpoints, not inboxes: a webhook (signed JSON) or a Slack incoming webhook. They
// opt in twice like e-mail: a webhook echoes a challenge at once; a Slack channel gets a confirm link.
import { createHmac, randomBytes } from "node:crypto";
import { SubscribeEndpointInput } from "@vigil/api-contract";
import { type Db, pageSubscriber } from "@vigil/db-schema";
import { EgressPolicy, EgressRefusedError, egressDispatcher } from "@vigil/egress";
import type { OutgoingHttp } from "@vigil/notifier";
import { and, eq } from "drizzle-orm";
import { request } from "undici";
import { ConflictError, parseInput, ValidationError } from "../errors";
import { type Locale, translator } from "../i18n";
import { sha256 } from "../secrets";
import { newToken } from "./common";
import { CONFIRM_TOKEN_TTL_MS, type SubscriberMail, subscribablePage } from "./subscription";

/** The header carrying `sha256=<hex HMAC-SHA256 of the raw body under the subscriber's secret>`. */
export const SIGNATURE_HEADER = "x-vigil-signature";
/** Stable across retries of one delivery: a receiver drops a second copy by it. */
export const IDEMPOTENCY_HEADER = "idempotency-key";

export const signBody = (secret: string, body: string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

export interface EndpointSubscription {
  subscriberId: number;
  channel: "webhook" | "slack";
  /** Webhook only: the signing secret, shown to the visitor this once. */
  secret: string | null;
  /** A webhook that echoed the challenge is subscribed now; a Slack channel waits for its confirm link. */
  verified: boolean;
  /** Why the webhook's verification failed (the subscriber stays pending for 48 h, then is dropped). */
  error: string | null;
}

/** Where Slack serves incoming webhooks: its own host, and GovSlack's. A URL elsewhere is not a Slack channel. */
export const SLACK_WEBHOOK_ORIGINS = ["https://hooks.slack.com", "https://hooks.slack-gov.com"] as const;

export interface EndpointOptions {
  nowMs?: number;
  access?: { passwordHash: string | null };
  language?: Locale;
  publicUrl: string;
  /** What a subscriber's URL may not reach (the instance's database, Redis, analytics). */
  egress?: EgressPolicy;
  /** Where a Slack subscriber's URL may point (default SLACK_WEBHOOK_ORIGINS; tests name a loopback receiver). */
  slackOrigins?: readonly string[];
}

/** A Slack subscriber names Slack's incoming-webhook host, not any URL that would take the same JSON. */
function assertSlackOrigin(url: string, origins: readonly string[]) {
  if (origins.includes(new URL(url).origin)) return;
  const rule = `must be a Slack incoming-webhook URL starting with ${origins.map((o) => `${o}/`).join(" or ")}`;
  throw new ValidationError(`subscription: url ${rule}`, [{ path: "url", message: rule }]);
}

const json = (body: unknown) => JSON.stringify(body);

/**
 * A visitor subscribes an endpoint to `pageId`. The row is stored pending with a 48 h token (purged like
 * an unconfirmed address). A webhook is sent `{type:"subscription.verify", challenge}` signed with its new
 * secret and must answer 2xx with the challenge (as `{"challenge": "..."}` or the bare text); a Slack
 * webhook is posted a message with a confirm link.
 */
export async function subscribeEndpoint(db: Db, pageId: number, raw: unknown, opts: EndpointOptions): Promise<EndpointSubscription> {
  const input = parseInput(SubscribeEndpointInput, raw, "subscription");
  if (input.channel === "slack") assertSlackOrigin(input.url, opts.slackOrigins ?? SLACK_WEBHOOK_ORIGINS);
  const nowMs = opts.nowMs ?? Date.now();
  const found = await subscribablePage(db, pageId, opts.access, nowMs);
  const passwordHash = found.passwordHash;
  const [existing] = await db
    .select()
    .from(pageSubscriber)
    .where(and(eq(pageSubscriber.pageId, pageId), eq(pageSubscriber.urlHash, sha256(input.url))));
  if (existing?.confirmedAt && !existing.unsubscribedAt)
    throw new ConflictError("this URL is already subscribed to the page; unsubscribe it first to get a new secret");
  if (existing) await db.delete(pageSubscriber).where(eq(pageSubscriber.id, existing.id));
  const token = newToken();
  const secret = input.channel === "webhook" ? `whsec_${randomBytes(24).toString("base64url")}` : null;
  const [created] = await db
    .insert(pageSubscriber)
    .values({
      pageId,
      email: "",
      channel: input.channel,
      url: input.url,
      urlHash: sha256(input.url),
      secret,
      tokenHash: sha256(token),
      tokenExpiresAt: nowMs + CONFIRM_TOKEN_TTL_MS,
      unsubscribeToken: newToken(),
      accessPasswordHash: passwordHash,
      language: opts.language ?? null,
      createdAt: nowMs,
    })
    .returning();
  const egress = opts.egress ?? EgressPolicy.none;
  const base = opts.publicUrl.replace(/\/+$/, "");
  const page = { slug: found.slug, title: found.title, url: `${base}/${found.slug}` };
  if (input.channel === "slack") {
    const tr = translator(opts.language ?? found.language);
    const confirmUrl = `${base}/confirm?token=${encodeURIComponent(token)}&lang=${tr.locale}`;
    const text = `${tr.t("mail.confirmIntro", { page: page.title })}\n${tr.t("mail.confirm")}: <${confirmUrl}>\n${tr.t("mail.confirmValidity")}`;
    const sent = await post(input.url, json({ text }), {}, egress);
    return { subscriberId: created!.id, channel: "slack", secret: null, verified: false, error: sent.ok ? null : sent.error };
  }
  const challenge = randomBytes(16).toString("hex");
  const body = json({ type: "subscription.verify", challenge, page });
  const answer = await post(input.url, body, { [SIGNATURE_HEADER]: signBody(secret!, body) }, egress);
  const echoed = answer.ok && (answer.text.trim() === challenge || challengeOf(answer.text) === challenge);
  if (echoed) await db.update(pageSubscriber).set({ confirmedAt: nowMs }).where(eq(pageSubscriber.id, created!.id));
  return {
    subscriberId: created!.id,
    channel: "webhook",
    secret,
    verified: echoed,
    error: echoed ? null : answer.ok ? "the endpoint answered without echoing the challenge" : answer.error,
  };
}

function challengeOf(text: string): string | null {
  try {
    const v = JSON.parse(text) as { challenge?: unknown };
    return typeof v?.challenge === "string" ? v.challenge : null;
  } catch {
    return null;
  }
}

type Posted = { ok: true; text: string } | { ok: false; error: string };

/** One POST through the egress policy; the answer's start is read for the challenge. */
async function post(url: string, body: string, headers: Record<string, string>, egress: EgressPolicy): Promise<Posted> {
  try {
    const res = await request(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
      dispatcher: egressDispatcher(egress),
      signal: AbortSignal.timeout(10_000),
    });
    const text = (await res.body.text()).slice(0, 2000);
    if (res.statusCode < 200 || res.statusCode >= 300) return { ok: false, error: `the endpoint answered HTTP ${res.statusCode}` };
    return { ok: true, text };
  } catch (err) {
    // Never echo the URL: a Slack webhook URL is its credential.
    if (err instanceof EgressRefusedError) return { ok: false, error: err.message };
    return { ok: false, error: "the endpoint could not be reached" };
  }
}

/**
 * What a webhook subscriber receives for one report update or maintenance window (docs/status-page-public.md
 * has the schema). The same bytes on every retry: `id` is the idempotency key.
 */
export function webhookPayload(mail: SubscriberMail, publicUrl: string) {
  const base = publicUrl.replace(/\/+$/, "");
  const pageUrl = `${base}/${mail.page.slug}`;
  return {
    id: deliveryKey(mail),
    type: mail.kind === "report_update" ? ("incident.updated" as const) : ("maintenance.scheduled" as const),
    page: { slug: mail.page.slug, title: mail.page.title, url: pageUrl },
    incident:
      mail.kind === "report_update"
        ? { id: mail.reportId!, title: mail.title, status: mail.status!, message: mail.message, url: `${pageUrl}/reports/${mail.reportId}` }
        : null,
    maintenance:
      mail.kind === "maintenance"
        ? { id: mail.refId, title: mail.title, message: mail.message, startsAt: mail.startsAt!, endsAt: mail.endsAt! }
        : null,
    unsubscribeUrl: `${base}/unsubscribe?token=${encodeURIComponent(mail.unsubscribeToken)}`,
  };
}

export const deliveryKey = (mail: Pick<SubscriberMail, "subscriberId" | "kind" | "refId">) =>
  `subscriber-${mail.subscriberId}-${mail.kind}-${mail.refId}`;

/** The request that delivers `mail` to an endpoint subscriber; `secret` is the webhook's plain signing key. */
export function endpointRequest(
  mail: SubscriberMail,
  content: { subject: string; text: string; link: string; unsubscribeUrl: string },
  publicUrl: string,
  secret: string | null,
): OutgoingHttp {
  const headers: Record<string, string> = { "content-type": "application/json", [IDEMPOTENCY_HEADER]: deliveryKey(mail) };
  if (mail.channel === "slack") {
    const tr = translator(mail.language);
    const text = `*${content.subject}*\n${mail.message}\n<${content.link}|${tr.t("mail.view")}> · <${content.unsubscribeUrl}|${tr.t("unsubscribe.submit")}>`;
    return { transport: "http", method: "POST", url: mail.url!, headers, body: json({ text }) };
  }
  const body = json(webhookPayload(mail, publicUrl));
  if (secret) headers[SIGNATURE_HEADER] = signBody(secret, body);
  return { transport: "http", method: "POST", url: mail.url!, headers, body };
}
