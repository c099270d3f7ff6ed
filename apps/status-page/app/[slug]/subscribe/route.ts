import { NotFoundError, RATE_LIMITS, sendSubscriptionConfirmation, subscribe, ValidationError } from "@vigil/core";
import { LimitExceededError } from "@vigil/limits";
import { mailTransport } from "@vigil/notifier";
import { RateLimitedError } from "@vigil/rate-limit";
import { headers } from "next/headers";
import { hasAccess } from "../../../lib/access";
import { getDb, pageBySlug } from "../../../lib/data";
import { getEnv } from "../../../lib/env";
import { countRequest } from "../../../lib/metrics";
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
  const back = (note: string) => seeOther(`${base || "/"}?subscribe=${note}#subscribe`);
  const env = getEnv();
  let email = "";
  try {
    email = String((await req.formData()).get("email") ?? "");
  } catch {
    return back("invalid");
  }
  try {
    if (mailTransport(env) === null) return back("unavailable");
    const client = clientOf(await headers());
    if (client) await getLimiter().take(RATE_LIMITS.subscribePerClient, client);
    const s = await subscribe(getDb(), page.id, { email }, Date.now(), { passwordHash: page.passwordHash });
    if (s.confirmToken) {
      const sent = await sendSubscriptionConfirmation(env, {
        subscriberId: s.subscriberId,
        email: s.email,
        token: s.confirmToken,
        pageTitle: page.title,
        publicUrl: env.PUBLIC_URL,
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
