// Subscribers in one file: subscribe, confirm, unsubscribe and the mail outbox share one token rule and one delivery record.
import { SubscribeInput } from "@vigil/api-contract";
import {
  type Db,
  maintenance,
  pageSubscriber,
  retryThroughOutage,
  statusPage,
  statusReport,
  statusReportUpdate,
  subscriberDelivery,
} from "@vigil/db-schema";
import type { EgressPolicy } from "@vigil/egress";
import { type NotifierEnv, send, sendMail } from "@vigil/notifier";
import { and, eq, gt, isNotNull, isNull, lt, ne, or, sql } from "drizzle-orm";
import { type Actor, auditInsert } from "../audit";
import { NotFoundError, parseInput } from "../errors";
import { type Locale, translator } from "../i18n";
import { CONFIRM_RESEND_MS } from "../rate-limits";
import { sha256 } from "../secrets";
import { newToken, pageRow } from "./common";
import { deliveryKey, endpointRequest, verificationErrors } from "./subscriber-endpoints";
import { CONFIRM_TOKEN_TTL_MS, type SubscriberMail, subscribablePage } from "./subscription";

/** A mail that keeps failing is given up after this many attempts. */
export const SUBSCRIBER_MAIL_MAX_ATTEMPTS = 5;

export interface Subscription {
  subscriberId: number;
  email: string;
  /** Raw confirmation token for the mail; null when the address is already confirmed (nothing to send). */
  confirmToken: string | null;
}

/**
 * A visitor asks for mail about `pageId`. A new or unsubscribed address gets a confirmation token valid
 * for 48 h; an address already confirmed gets nothing new, and so does one whose confirmation was mailed
 * less than CONFIRM_RESEND_MS ago and still works ("check your inbox"): asking again and again mails
 * one link per 15 minutes at most, and a new link replaces the old one. The answer to the visitor must
 * be the same in every case, so the page cannot be used to test who subscribed.
 * A password-protected page takes only visitors who proved its password: `access.passwordHash` is the
 * hash their access cookie was signed for; anything but the page's current hash is refused as not found.
 */
export async function subscribe(
  db: Db,
  pageId: number,
  raw: unknown,
  nowMs = Date.now(),
  access: { passwordHash: string | null; language?: Locale } = { passwordHash: null },
): Promise<Subscription> {
  const { email } = parseInput(SubscribeInput, raw, "subscription");
  const { passwordHash } = await subscribablePage(db, pageId, access, nowMs);
  const token = newToken();
  const values = {
    tokenHash: sha256(token),
    tokenExpiresAt: nowMs + CONFIRM_TOKEN_TTL_MS,
    accessPasswordHash: passwordHash,
    // Mail speaks the language the visitor read the page in.
    language: access.language ?? null,
  };
  const [existing] = await db
    .select()
    .from(pageSubscriber)
    .where(and(eq(pageSubscriber.pageId, pageId), eq(pageSubscriber.channel, "email"), eq(pageSubscriber.email, email)));
  // A subscriber who proved an old password confirms again: the new password holder vouches for the address only by mail.
  if (
    existing &&
    existing.confirmedAt !== null &&
    existing.unsubscribedAt === null &&
    (passwordHash === null || existing.accessPasswordHash === passwordHash)
  ) {
    return { subscriberId: existing.id, email, confirmToken: null };
  }
  const pending = existing && existing.confirmedAt === null && existing.unsubscribedAt === null;
  const mailedAt = (existing?.tokenExpiresAt ?? 0) - CONFIRM_TOKEN_TTL_MS;
  if (pending && nowMs - mailedAt < CONFIRM_RESEND_MS) return { subscriberId: existing.id, email, confirmToken: null };
  const [row] = existing
    ? await db
        .update(pageSubscriber)
        .set({ ...values, confirmedAt: null, unsubscribedAt: null })
        // Only the request that saw this token replaces it: two at once mail one link.
        .where(and(eq(pageSubscriber.id, existing.id), eq(pageSubscriber.tokenHash, existing.tokenHash)))
        .returning()
    : await db
        .insert(pageSubscriber)
        .values({ pageId, email, ...values, unsubscribeToken: newToken(), createdAt: nowMs })
        .onConflictDoNothing()
        .returning();
  if (!row) return { subscriberId: existing?.id ?? 0, email, confirmToken: null };
  return { subscriberId: row.id, email, confirmToken: token };
}

export type TokenOutcome =
  | { outcome: "confirmed" | "already-confirmed" | "unsubscribed" | "already-unsubscribed"; pageId: number; email: string }
  | { outcome: "invalid" | "expired" };

/** Double opt-in: the link from the confirmation mail. Wrong, reused and expired tokens each say so. */
export async function confirmSubscription(db: Db, token: string, nowMs = Date.now()): Promise<TokenOutcome> {
  if (!token || token.length > 200) return { outcome: "invalid" };
  const [row] = await db
    .select()
    .from(pageSubscriber)
    .where(eq(pageSubscriber.tokenHash, sha256(token)));
  if (!row) return { outcome: "invalid" };
  if (row.confirmedAt !== null && row.unsubscribedAt === null)
    return { outcome: "already-confirmed", pageId: row.pageId, email: row.email };
  if (row.unsubscribedAt !== null || (row.tokenExpiresAt !== null && row.tokenExpiresAt <= nowMs)) return { outcome: "expired" };
  const done = await db
    .update(pageSubscriber)
    .set({ confirmedAt: nowMs })
    .where(and(eq(pageSubscriber.id, row.id), isNull(pageSubscriber.confirmedAt)))
    .returning({ id: pageSubscriber.id });
  return { outcome: done.length > 0 ? "confirmed" : "already-confirmed", pageId: row.pageId, email: row.email };
}

export type LinkState =
  | { state: "pending" | "subscribed" | "unsubscribed"; pageId: number; email: string }
  | { state: "invalid" | "expired" };

/**
 * What a confirm or unsubscribe link points at, changing nothing: a GET of the link (which mail scanners
 * make) shows this and a button, and only the button's POST confirms or unsubscribes.
 */
export async function subscriptionLink(db: Db, kind: "confirm" | "unsubscribe", token: string, nowMs = Date.now()): Promise<LinkState> {
  if (!token || token.length > 200) return { state: "invalid" };
  const [row] = await db
    .select()
    .from(pageSubscriber)
    .where(kind === "confirm" ? eq(pageSubscriber.tokenHash, sha256(token)) : eq(pageSubscriber.unsubscribeToken, token));
  if (!row) return { state: "invalid" };
  const who = { pageId: row.pageId, email: row.email };
  if (row.unsubscribedAt !== null) return kind === "confirm" ? { state: "expired" } : { state: "unsubscribed", ...who };
  if (kind === "unsubscribe" || row.confirmedAt !== null) return { state: "subscribed", ...who };
  if (row.tokenExpiresAt !== null && row.tokenExpiresAt <= nowMs) return { state: "expired" };
  return { state: "pending", ...who };
}

/** The link in every mail; works without sign-in. */
export async function unsubscribe(db: Db, token: string, nowMs = Date.now()): Promise<TokenOutcome> {
  if (!token || token.length > 200) return { outcome: "invalid" };
  const [row] = await db.select().from(pageSubscriber).where(eq(pageSubscriber.unsubscribeToken, token));
  if (!row) return { outcome: "invalid" };
  if (row.unsubscribedAt !== null) return { outcome: "already-unsubscribed", pageId: row.pageId, email: row.email };
  await db.update(pageSubscriber).set({ unsubscribedAt: nowMs }).where(eq(pageSubscriber.id, row.id));
  return { outcome: "unsubscribed", pageId: row.pageId, email: row.email };
}

export interface SubscriberView {
  id: number;
  /** e-mail, or a webhook / Slack channel (whose URL is a credential and is not shown). */
  channel: "email" | "webhook" | "slack";
  email: string;
  state: "pending" | "confirmed" | "unsubscribed";
  createdAt: number;
  confirmedAt: number | null;
  /** A pending webhook or Slack subscriber whose verification failed: why (refused address, HTTP status, no echo). */
  verificationError: string | null;
}

export async function listSubscribers(db: Db, workspaceId: number, pageId: number): Promise<SubscriberView[]> {
  await pageRow(db, workspaceId, pageId);
  const rows = await db.select().from(pageSubscriber).where(eq(pageSubscriber.pageId, pageId)).orderBy(pageSubscriber.id);
  const errors = await verificationErrors(
    db,
    rows.filter((r) => r.channel !== "email" && r.confirmedAt === null).map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    email: r.email,
    state: r.unsubscribedAt !== null ? "unsubscribed" : r.confirmedAt !== null ? "confirmed" : "pending",
    createdAt: r.createdAt,
    confirmedAt: r.confirmedAt,
    verificationError: errors.get(r.id) ?? null,
  }));
}

export async function removeSubscriber(db: Db, workspaceId: number, subscriberId: number, actor: Actor): Promise<void> {
  const [row] = await db
    .select({ id: pageSubscriber.id, pageId: pageSubscriber.pageId })
    .from(pageSubscriber)
    .innerJoin(statusPage, eq(statusPage.id, pageSubscriber.pageId))
    .where(and(eq(pageSubscriber.id, subscriberId), eq(statusPage.workspaceId, workspaceId)));
  if (!row) throw new NotFoundError("subscriber", subscriberId);
  await db.delete(pageSubscriber).where(eq(pageSubscriber.id, subscriberId));
  await auditInsert(db, {
    workspaceId,
    actor,
    action: "subscriber.remove",
    targetType: "subscriber",
    targetId: subscriberId,
    metadata: { pageId: row.pageId },
  });
}

// ── Mail to subscribers ──────────────────────────────────────────────────────

/**
 * What must be mailed now: every report update and every upcoming or active maintenance window of a
 * page, to each confirmed subscriber who subscribed before it was posted, unless already sent (or given
 * up). A subscriber never receives the backlog from before they confirmed.
 */
export async function pendingSubscriberMails(db: Db, nowMs = Date.now(), limit = 500): Promise<SubscriberMail[]> {
  const notDone = (kind: "report_update" | "maintenance", ref: typeof statusReportUpdate.id | typeof maintenance.id) => ({
    join: and(eq(subscriberDelivery.subscriberId, pageSubscriber.id), eq(subscriberDelivery.kind, kind), eq(subscriberDelivery.refId, ref)),
    where: or(
      isNull(subscriberDelivery.id),
      and(ne(subscriberDelivery.outcome, "sent"), lt(subscriberDelivery.attempts, SUBSCRIBER_MAIL_MAX_ATTEMPTS)),
    ),
  });
  const live = and(
    isNotNull(pageSubscriber.confirmedAt),
    isNull(pageSubscriber.unsubscribedAt),
    eq(statusPage.published, true),
    // A protected page mails only those who proved its current password.
    or(isNull(statusPage.passwordHash), eq(pageSubscriber.accessPasswordHash, statusPage.passwordHash)),
  );
  // The columns both kinds of mail read.
  const recipient = () => ({
    subscriberId: pageSubscriber.id,
    channel: pageSubscriber.channel,
    email: pageSubscriber.email,
    url: pageSubscriber.url,
    secret: pageSubscriber.secret,
    unsubscribeToken: pageSubscriber.unsubscribeToken,
  });
  const pageOf = () => ({
    page: { id: statusPage.id, slug: statusPage.slug, title: statusPage.title },
    language: sql<Locale>`coalesce(${pageSubscriber.language}, ${statusPage.language})`,
  });
  const attempts = () => sql<number>`coalesce(${subscriberDelivery.attempts}, 0)`;
  const u = notDone("report_update", statusReportUpdate.id);
  const m = notDone("maintenance", maintenance.id);
  const [updates, windows] = await db.batch([
    db
      .select({
        ...recipient(),
        refId: statusReportUpdate.id,
        ...pageOf(),
        title: statusReport.title,
        status: statusReportUpdate.status,
        message: statusReportUpdate.message,
        reportId: statusReport.id,
        attempts: attempts(),
      })
      .from(statusReportUpdate)
      .innerJoin(statusReport, eq(statusReport.id, statusReportUpdate.reportId))
      .innerJoin(statusPage, eq(statusPage.id, statusReport.pageId))
      .innerJoin(pageSubscriber, eq(pageSubscriber.pageId, statusPage.id))
      .leftJoin(subscriberDelivery, u.join)
      .where(and(live, sql`${statusReportUpdate.createdAt} >= ${pageSubscriber.confirmedAt}`, u.where))
      .orderBy(statusReportUpdate.id, pageSubscriber.id)
      .limit(limit),
    db
      .select({
        ...recipient(),
        refId: maintenance.id,
        ...pageOf(),
        title: maintenance.title,
        message: maintenance.message,
        startsAt: maintenance.startsAt,
        endsAt: maintenance.endsAt,
        attempts: attempts(),
      })
      .from(maintenance)
      .innerJoin(statusPage, eq(statusPage.id, maintenance.pageId))
      .innerJoin(pageSubscriber, eq(pageSubscriber.pageId, statusPage.id))
      .leftJoin(subscriberDelivery, m.join)
      .where(and(live, gt(maintenance.endsAt, nowMs), sql`${maintenance.createdAt} >= ${pageSubscriber.confirmedAt}`, m.where))
      .orderBy(maintenance.id, pageSubscriber.id)
      .limit(limit),
  ]);
  return [
    ...updates.map((r) => ({
      ...r,
      unsubscribeToken: r.unsubscribeToken ?? "",
      kind: "report_update" as const,
      startsAt: null,
      endsAt: null,
      attempts: Number(r.attempts),
    })),
    ...windows.map((r) => ({
      ...r,
      unsubscribeToken: r.unsubscribeToken ?? "",
      kind: "maintenance" as const,
      status: null,
      reportId: null,
      attempts: Number(r.attempts),
    })),
  ];
}

/**
 * Claims one mail for sending: creates its delivery row, or bumps the attempt count of a failed one.
 * Only one caller wins a given attempt, so two senders never mail the same update twice.
 */
async function claim(db: Db, mail: SubscriberMail): Promise<boolean> {
  const key = { subscriberId: mail.subscriberId, kind: mail.kind, refId: mail.refId };
  if (mail.attempts === 0) {
    const inserted = await db
      .insert(subscriberDelivery)
      .values({ ...key, outcome: "pending", attempts: 1 })
      .onConflictDoNothing()
      .returning({ id: subscriberDelivery.id });
    return inserted.length > 0;
  }
  const bumped = await db
    .update(subscriberDelivery)
    .set({ attempts: mail.attempts + 1, outcome: "pending" })
    .where(
      and(
        eq(subscriberDelivery.subscriberId, key.subscriberId),
        eq(subscriberDelivery.kind, key.kind),
        eq(subscriberDelivery.refId, key.refId),
        eq(subscriberDelivery.attempts, mail.attempts),
        ne(subscriberDelivery.outcome, "sent"),
      ),
    )
    .returning({ id: subscriberDelivery.id });
  return bumped.length > 0;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Subject, text and HTML of one subscriber mail; `publicUrl` is the status site's base URL. */
export function subscriberMailContent(mail: SubscriberMail, publicUrl: string) {
  const tr = translator(mail.language);
  const base = publicUrl.replace(/\/+$/, "");
  const lang = `lang=${encodeURIComponent(mail.language)}`;
  const unsubscribeUrl = `${base}/unsubscribe?token=${encodeURIComponent(mail.unsubscribeToken)}&${lang}`;
  const link =
    mail.kind === "report_update" ? `${base}/${mail.page.slug}/reports/${mail.reportId}?${lang}` : `${base}/${mail.page.slug}?${lang}`;
  const status = mail.status as "investigating" | "identified" | "monitoring" | "resolved" | null;
  const headline =
    mail.kind === "report_update"
      ? `${status ? tr.t(`report.${status}`) : ""}: ${mail.title}`
      : tr.t("mail.maintenance", { title: mail.title, from: tr.dateTime(mail.startsAt!), to: tr.dateTime(mail.endsAt!) });
  const why = tr.t("mail.why", { page: mail.page.title });
  const subject = `[${mail.page.title}] ${headline}`;
  const text = [
    headline,
    "",
    mail.message,
    "",
    `${tr.t("mail.details")}: ${link}`,
    "",
    why,
    `${tr.t("unsubscribe.submit")}: ${unsubscribeUrl}`,
  ].join("\n");
  const html = `<div style="font-family:system-ui,sans-serif;max-width:560px;color:#0f172a">
<p style="color:#64748b;margin:0 0 4px">${escapeHtml(mail.page.title)}</p>
<h1 style="font-size:18px;margin:0 0 12px">${escapeHtml(headline)}</h1>
<div style="white-space:pre-wrap;line-height:1.5">${escapeHtml(mail.message)}</div>
<p><a href="${escapeHtml(link)}">${escapeHtml(tr.t("mail.view"))}</a></p>
<hr style="border:none;border-top:1px solid #e2e8f0">
<p style="font-size:12px;color:#64748b">${escapeHtml(why)} <a href="${escapeHtml(unsubscribeUrl)}">${escapeHtml(tr.t("unsubscribe.submit"))}</a></p>
</div>`;
  return { subject, text, html, unsubscribeUrl, link };
}

export interface SubscriberSendSummary {
  sent: number;
  failed: number;
  skipped: number;
}

/**
 * Sends what `pendingSubscriberMails` lists through the notifier's mail path and records each outcome.
 * Safe to run from several workers at once and after a crash: a mail is claimed before it is sent, and
 * its Idempotency-Key / Message-ID stays the same across retries. `signal` cuts short the wait for
 * the database to record a sent mail (shutdown).
 */
export async function sendSubscriberMails(
  db: Db,
  env: NotifierEnv,
  opts: { publicUrl: string; now?: number; limit?: number; signal?: AbortSignal; egress?: EgressPolicy },
): Promise<SubscriberSendSummary> {
  const now = opts.now ?? Date.now();
  const summary: SubscriberSendSummary = { sent: 0, failed: 0, skipped: 0 };
  for (const mail of await pendingSubscriberMails(db, now, opts.limit)) {
    if (!(await claim(db, mail))) {
      summary.skipped++;
      continue;
    }
    const content = subscriberMailContent(mail, opts.publicUrl);
    let outcome: "sent" | "failed" = "failed";
    let error: string | null = null;
    try {
      const r =
        mail.channel === "email"
          ? await sendMail(
              env,
              { to: mail.email, subject: content.subject, text: content.text, html: content.html, key: deliveryKey(mail) },
              now,
            )
          : await send(endpointRequest(mail, content, opts.publicUrl, mail.secret), { egress: opts.egress });
      outcome = r.ok ? "sent" : "failed";
      error = r.ok ? null : r.error;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const record = () =>
      db
        .update(subscriberDelivery)
        .set({ outcome, error, sentAt: outcome === "sent" ? now : null })
        .where(
          and(
            eq(subscriberDelivery.subscriberId, mail.subscriberId),
            eq(subscriberDelivery.kind, mail.kind),
            eq(subscriberDelivery.refId, mail.refId),
          ),
        );
    // A mail left "pending" is claimed and mailed again by the next run: a sent one must not lose its record to an outage.
    if (outcome === "sent") await retryThroughOutage(record, { signal: opts.signal });
    else await record();
    summary[outcome]++;
  }
  return summary;
}

/** The double opt-in mail. */
export async function sendSubscriptionConfirmation(
  env: NotifierEnv,
  args: { subscriberId: number; email: string; token: string; pageTitle: string; publicUrl: string; language?: Locale },
  now = Date.now(),
) {
  const tr = translator(args.language ?? "en");
  const url = `${args.publicUrl.replace(/\/+$/, "")}/confirm?token=${encodeURIComponent(args.token)}&lang=${encodeURIComponent(tr.locale)}`;
  const subject = tr.t("mail.confirmSubject", { page: args.pageTitle });
  const intro = tr.t("mail.confirmIntro", { page: args.pageTitle });
  const validity = tr.t("mail.confirmValidity");
  const text = `${intro}\n\n${tr.t("mail.confirm")}: ${url}\n\n${validity}`;
  const html = `<div style="font-family:system-ui,sans-serif;max-width:560px;color:#0f172a">
<h1 style="font-size:18px">${escapeHtml(tr.t("confirm.title"))}</h1>
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(url)}" style="display:inline-block;background:#0f172a;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(tr.t("confirm.submit"))}</a></p>
<p style="font-size:12px;color:#64748b">${escapeHtml(validity)}</p>
</div>`;
  return sendMail(
    env,
    { to: args.email, subject, text, html, key: `subscriber-confirm-${args.subscriberId}-${sha256(args.token).slice(0, 16)}` },
    now,
  );
}
