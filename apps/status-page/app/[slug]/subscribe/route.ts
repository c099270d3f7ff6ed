import { NotFoundError, RATE_LIMITS, sendSubscriptionConfirmation, subscribe, ValidationError } from "@vigil/core";
import { type Locale, localeFromParam } from "@vigil/core/i18n";
import { LimitExceededError } from "@vigil/limits";
import { mailTransport } from "@vigil/notifier";
import { RateLimitedError } from "@vigil/rate-limit";
import { headers } from "next/headers";
import { hasAccess } from "../../../lib/access";
import { getDb, pageBySlug } from "../../../lib/data";
import { secretPage, subscribeEndpointFor } from "../../../lib/endpoint-subscribe";
import { getEnv } from "../../../lib/env";
import { countRequest } from "../../../lib/metrics";
import type { FoundPage } from "../../../lib/page";
import { clientOf, getLimiter } from "../../../lib/rate-limit";
import { seeOther } from "../../../lib/redirect";
import { basePath } from "../../../lib/site";

export const dynamic = "force-dynamic";

const notFound = () => new Response("Not found\n", { status: 404, headers: { "cache-control": "no-store" } });

/**
 * The subscribe form: stores the address unconfirmed and mails a confirmation link (double opt-in).
 * One client subscribes a handful of addresses an hour; an address with a pending link gets no new one
 * for 15 minutes (core's rule), so a script cannot make the page mail anyone over and over.
 */
export async function POST(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  const page = await pageBySlug((await params).slug);
  // A protected page takes subscribers only with its access cookie, as its view does: its mail carries its reports.
  if (!page || !(await hasAccess(page))) return notFound();
  const base = await basePath(page.slug);
  // The form says which language the visitor read; the answer and the mail stay in it.
  const language = localeFromParam(new URL(req.url).searchParams.get("lang"));
  const back = (note: string) => seeOther(`${base || "/"}?subscribe=${note}${language ? `&lang=${language}` : ""}#subscribe`);
  const env = getEnv();
  const client = clientOf(await headers());
  if ((req.headers.get("content-type") ?? "").startsWith("application/json")) return endpointJson(req, page, language, client);
  let form: FormData;
  try {
    form = await req.formData();
  } catch {
    return back("invalid");
  }
  if (form.has("url")) {
    try {
      if (client) await getLimiter().take(RATE_LIMITS.subscribePerClient, client);
      const r = await subscribeEndpointFor(
        page,
        { channel: String(form.get("channel") ?? ""), url: String(form.get("url") ?? "") },
        language,
      );
      if (!r.ok) return back(r.note);
      countRequest("subscribe", 201);
      // Whatever the URL reaches, the same answer: workflows verifies it next, admins see why it failed.
      if (r.subscription.channel === "slack") return back("slackSent");
      return secretPage(
        language ?? page.language,
        page.title,
        `${base || "/"}${language ? `?lang=${language}` : ""}`,
        r.subscription.secret!,
      );
    } catch (err) {
      if (err instanceof LimitExceededError) return back("off");
      if (err instanceof NotFoundError) return notFound();
      if (err instanceof RateLimitedError) return back(`limited&wait=${err.retryAfterS}`);
      throw err;
    }
  }
  const email = String(form.get("email") ?? "");
  try {
    if (mailTransport(env) === null) return back("unavailable");
    if (client) await getLimiter().take(RATE_LIMITS.subscribePerClient, client);
    const s = await subscribe(getDb(), page.id, { email }, Date.now(), { passwordHash: page.passwordHash, language });
    if (s.confirmToken) {
      const sent = await sendSubscriptionConfirmation(env, {
        subscriberId: s.subscriberId,
        email: s.email,
        token: s.confirmToken,
        pageTitle: page.title,
        publicUrl: env.PUBLIC_URL,
        language: language ?? page.language,
      });
      if (!sent.ok) return back("unavailable");
    }
    countRequest("subscribe", 303);
    // The same answer whether or not the address was already subscribed.
    return back("sent");
  } catch (err) {
    if (err instanceof ValidationError) return back("invalid");
    if (err instanceof LimitExceededError) return back("off");
    // The password changed since this visitor proved it.
    if (err instanceof NotFoundError) return notFound();
    if (err instanceof RateLimitedError) return back(`limited&wait=${err.retryAfterS}`);
    throw err;
  }
}

/**
 * `POST /{slug}/subscribe` with `{"channel": "webhook" | "slack", "url": "..."}`: 201 with the subscription,
 * `state: "pending_verification"` (a webhook's `secret` appears in this answer only), 400 naming the field,
 * 409 for a URL already subscribed.
 */
async function endpointJson(req: Request, page: FoundPage, language: Locale | undefined, client: string | null) {
  const json = (body: unknown, status: number, extra: Record<string, string> = {}) =>
    Response.json(body, { status, headers: { "cache-control": "no-store", ...extra } });
  let input: unknown;
  try {
    input = await req.json();
  } catch {
    return json(
      { error: { code: "invalid_input", message: "the body is not JSON", issues: [{ path: "", message: "must be a JSON object" }] } },
      400,
    );
  }
  try {
    if (client) await getLimiter().take(RATE_LIMITS.subscribePerClient, client);
    const r = await subscribeEndpointFor(page, input, language);
    return r.ok ? json(r.subscription, 201) : json(r.body, r.status);
  } catch (err) {
    if (err instanceof LimitExceededError) return json({ error: { code: "limit_exceeded", message: err.message } }, 403);
    if (err instanceof NotFoundError) return notFound();
    if (err instanceof RateLimitedError)
      return json({ error: { code: "rate_limited", message: err.sentence } }, 429, { "retry-after": String(err.retryAfterS) });
    throw err;
  }
}
