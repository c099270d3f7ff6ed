// Subscribers that are endpoints, not inboxes: a webhook (signed JSON) or a Slack incoming webhook. They
// opt in twice like e-mail: a webhook echoes a challenge; a Slack channel gets a confirm link. Both are
// sent by workflows, never in the visitor's request, so a visitor learns nothing of what a URL reaches.
import { createHmac, randomBytes } from "node:crypto";
import { SubscribeEndpointInput } from "@vigil/api-contract";
import { type Db, pageSubscriber, statusPage, subscriberDelivery } from "@vigil/db-schema";
import { type EgressPolicy, EgressRefusedError, egressDispatcher } from "@vigil/egress";
import type { OutgoingHttp } from "@vigil/notifier";
import { and, eq, gt, inArray, isNull, ne } from "drizzle-orm";
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
  /**
   * Always "pending_verification": workflows posts the challenge (webhook) or the confirm link (Slack) next.
   * Every outcome answers the visitor the same; the page's admins see why an endpoint failed.
   */
  state: "pending_verification";
}

/** Where Slack serves incoming webhooks: its own host, and GovSlack's. A URL elsewhere is not a Slack channel. */
export const SLACK_WEBHOOK_ORIGINS = ["https://hooks.slack.com", "https://hooks.slack-gov.com"] as const;

export interface EndpointOptions {
  nowMs?: number;
  access?: { passwordHash: string | null };
  language?: Locale;
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
export async function subscribeEndpoint(db: Db, pageId: number, raw: unknown, opts: EndpointOptions = {}): Promise<EndpointSubscription> {
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
  if (existing) {
    // A new subscription of the same URL is verified afresh.
    await db.delete(subscriberDelivery).where(eq(subscriberDelivery.subscriberId, existing.id));
    await db.delete(pageSubscriber).where(eq(pageSubscriber.id, existing.id));
  }
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
  // Nothing is sent from here: workflows verifies it (verifyEndpointSubscribers) through the public-only policy.
  return { subscriberId: created!.id, channel: input.channel, secret, state: "pending_verification" };
}

/** The delivery record of a subscriber's verification (one per subscription: a new one replaces the row). */
const VERIFICATION = { kind: "verification", refId: 0 } as const;

export interface VerifyOptions {
  nowMs?: number;
  publicUrl: string;
  /** Anonymous visitors' URLs: public addresses only, but the operator's allowed ranges (SUBSCRIBER_ALLOW_PRIVATE). */
  egress: EgressPolicy;
}

export interface VerifySummary {
  verified: number;
  /** Slack channels posted their confirm link. */
  linked: number;
  failed: number;
}

/**
 * Sends each new endpoint subscriber its verification, once: a webhook the signed `subscription.verify`
 * challenge (it must answer 2xx echoing it, as `{"challenge": "..."}` or the bare text), a Slack channel a
 * message with a fresh confirm link. Claimed before sending, so several workers never send one twice. The
 * real reason of a failure is stored for the page's admins (listSubscribers), never shown to the visitor.
 */
export async function verifyEndpointSubscribers(db: Db, opts: VerifyOptions): Promise<VerifySummary> {
  const nowMs = opts.nowMs ?? Date.now();
  const summary: VerifySummary = { verified: 0, linked: 0, failed: 0 };
  const rows = await db
    .select({ subscriber: pageSubscriber, page: { slug: statusPage.slug, title: statusPage.title, language: statusPage.language } })
    .from(pageSubscriber)
    .innerJoin(statusPage, eq(statusPage.id, pageSubscriber.pageId))
    .leftJoin(
      subscriberDelivery,
      and(
        eq(subscriberDelivery.subscriberId, pageSubscriber.id),
        eq(subscriberDelivery.kind, VERIFICATION.kind),
        eq(subscriberDelivery.refId, VERIFICATION.refId),
      ),
    )
    .where(
      and(
        ne(pageSubscriber.channel, "email"),
        isNull(pageSubscriber.confirmedAt),
        isNull(pageSubscriber.unsubscribedAt),
        gt(pageSubscriber.tokenExpiresAt, nowMs),
        isNull(subscriberDelivery.id),
      ),
    )
    .orderBy(pageSubscriber.id)
    .limit(100);
  for (const { subscriber: row, page: found } of rows) {
    const claimed = await db
      .insert(subscriberDelivery)
      .values({ subscriberId: row.id, ...VERIFICATION, outcome: "pending", attempts: 1 })
      .onConflictDoNothing()
      .returning({ id: subscriberDelivery.id });
    if (claimed.length === 0) continue;
    const base = opts.publicUrl.replace(/\/+$/, "");
    const page = { slug: found.slug, title: found.title, url: `${base}/${found.slug}` };
    let error: string | null;
    if (row.channel === "slack") {
      // The token the visitor's request made was never sent anywhere: this message carries a new one.
      const token = newToken();
      await db
        .update(pageSubscriber)
        .set({ tokenHash: sha256(token) })
        .where(eq(pageSubscriber.id, row.id));
      const tr = translator(row.language ?? found.language);
      const confirmUrl = `${base}/confirm?token=${encodeURIComponent(token)}&lang=${tr.locale}`;
      const text = `${tr.t("mail.confirmIntro", { page: page.title })}\n${tr.t("mail.confirm")}: <${confirmUrl}>\n${tr.t("mail.confirmValidity")}`;
      const sent = await post(row.url!, json({ text }), {}, opts.egress);
      error = sent.ok ? null : sent.error;
      if (!error) summary.linked++;
    } else {
      const challenge = randomBytes(16).toString("hex");
      const body = json({ type: "subscription.verify", challenge, page });
      const answer = await post(row.url!, body, { [SIGNATURE_HEADER]: signBody(row.secret!, body) }, opts.egress);
      const echoed = answer.ok && (answer.text.trim() === challenge || challengeOf(answer.text) === challenge);
      error = echoed ? null : answer.ok ? "the endpoint answered without echoing the challenge" : answer.error;
      if (echoed) {
        await db.update(pageSubscriber).set({ confirmedAt: nowMs }).where(eq(pageSubscriber.id, row.id));
        summary.verified++;
      }
    }
    if (error) summary.failed++;
    await db
      .update(subscriberDelivery)
      .set({ outcome: error ? "failed" : "sent", error, sentAt: error ? null : nowMs })
      .where(and(eq(subscriberDelivery.subscriberId, row.id), eq(subscriberDelivery.kind, VERIFICATION.kind)));
  }
  return summary;
}

/** Why each endpoint subscriber of these failed verification, for the page's admins. */
export async function verificationErrors(db: Db, subscriberIds: readonly number[]): Promise<Map<number, string>> {
  if (subscriberIds.length === 0) return new Map();
  const rows = await db
    .select({ id: subscriberDelivery.subscriberId, error: subscriberDelivery.error })
    .from(subscriberDelivery)
    .where(
      and(
        inArray(subscriberDelivery.subscriberId, [...subscriberIds]),
        eq(subscriberDelivery.kind, VERIFICATION.kind),
        eq(subscriberDelivery.outcome, "failed"),
      ),
    );
  return new Map(rows.flatMap((r) => (r.error ? [[r.id, r.error] as const] : [])));
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
