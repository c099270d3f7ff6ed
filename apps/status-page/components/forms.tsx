import { type PublicPageMeta, RATE_LIMITS } from "@vigil/core";
import { RateLimitedError } from "@vigil/rate-limit";
import { card } from "./shell";

const SUBSCRIBE_NOTES: Record<string, { text: string; ok: boolean }> = {
  sent: { text: "Almost done: check your inbox and click the link to confirm.", ok: true },
  invalid: { text: "That does not look like an e-mail address. Please check it and try again.", ok: false },
  off: { text: "Subscriptions are not available for this page.", ok: false },
  unavailable: { text: "We could not send the confirmation mail right now. Please try again later.", ok: false },
};

/** "Too many subscriptions from your network address; try again in N s." */
const limited = (wait: string | undefined) => ({
  text: new RateLimitedError(RATE_LIMITS.subscribePerClient, /^\d{1,6}$/.test(wait ?? "") ? Number(wait) : 60).sentence,
  ok: false,
});

/** A plain form: it works without JavaScript. */
export function SubscribeForm({ base, note, wait }: { base: string; note?: string; wait?: string }) {
  const msg = note === "limited" ? limited(wait) : note ? SUBSCRIBE_NOTES[note] : undefined;
  return (
    <section id="subscribe" className={`${card} p-5`}>
      <h2 className="font-semibold t-heading">Get updates by e-mail</h2>
      <p className="mt-1 text-sm t-muted">We will mail you when an incident is reported, updated or resolved, and before maintenance.</p>
      <form method="post" action={`${base}/subscribe`} className="mt-4 flex flex-col gap-2 sm:flex-row">
        <label htmlFor="email" className="sr-only">
          E-mail address
        </label>
        <input
          id="email"
          name="email"
          type="email"
          required
          autoComplete="email"
          placeholder="you@example.com"
          className="min-w-0 flex-1 rounded-md border b-line bg-surface px-3 py-2 t-heading placeholder:text-slate-400 focus:border-slate-500 focus:outline-none focus:ring-2 focus:ring-slate-300"
        />
        <button type="submit" className="rounded-md bg-ink px-4 py-2 font-medium t-on-ink hover:opacity-90">
          Subscribe
        </button>
      </form>
      {msg ? (
        <p role="status" className={`mt-3 text-sm ${msg.ok ? "text-emerald-700" : "text-red-700"}`}>
          {msg.text}
        </p>
      ) : null}
    </section>
  );
}

const AUTH_NOTES: Record<string, string> = {
  wrong: "That password is not right.",
  locked: "Too many wrong passwords. Please wait a few minutes and try again.",
};

export function PasswordGate({ page, base, note }: { page: PublicPageMeta; base: string; note?: string }) {
  return (
    <div className={`theme-${page.theme} flex min-h-screen items-center justify-center bg-page px-4`}>
      <form method="post" action={`${base}/unlock`} className={`${card} w-full max-w-sm p-6`}>
        {/* biome-ignore lint/performance/noImgElement: a logo from any host the page owner names; no image optimizer needed */}
        {page.logoUrl ? <img src={page.logoUrl} alt="" className="mb-4 h-8 w-auto" /> : null}
        <h1 className="text-lg font-semibold t-heading">{page.title}</h1>
        <p className="mt-1 text-sm t-muted">This status page is protected. Enter its password to continue.</p>
        <label htmlFor="password" className="mt-5 block text-sm font-medium t-text">
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          required
          autoComplete="current-password"
          className="mt-1 w-full rounded-md border b-line bg-surface px-3 py-2 t-heading focus:border-slate-500 focus:outline-none focus:ring-2 focus:ring-slate-300"
        />
        {note && AUTH_NOTES[note] ? (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {AUTH_NOTES[note]}
          </p>
        ) : null}
        <button type="submit" className="mt-4 w-full rounded-md bg-ink px-4 py-2 font-medium t-on-ink hover:opacity-90">
          View status
        </button>
      </form>
    </div>
  );
}
