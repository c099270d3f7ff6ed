// The webhook / Slack half of the subscribe form, and its JSON twin for scripts.
import { ConflictError, type EndpointSubscription, subscribeEndpoint, ValidationError } from "@vigil/core";
import { type Locale, translator } from "@vigil/core/i18n";
import { SecretKeyError } from "@vigil/db-schema";
import { getDb } from "./data";
import type { FoundPage } from "./page";

export type EndpointOutcome =
  | { ok: true; subscription: EndpointSubscription }
  | { ok: false; status: 400 | 409 | 503; note: "invalidUrl" | "invalidSlackUrl" | "taken" | "unavailable"; body: unknown };

/** A Slack subscriber's bad URL gets the rule for Slack's webhook hosts, not the generic URL note. */
const invalidNote = (input: unknown) =>
  (input as { channel?: unknown } | null)?.channel === "slack" ? ("invalidSlackUrl" as const) : ("invalidUrl" as const);

/**
 * Validates and stores the subscription, pending: workflows sends its verification through the public-only
 * policy, so this request reaches no URL and every accepted URL gets the same answer.
 * A bad field or a taken URL is an answer, never a throw.
 */
export async function subscribeEndpointFor(page: FoundPage, input: unknown, language: Locale | undefined): Promise<EndpointOutcome> {
  try {
    const subscription = await subscribeEndpoint(getDb(), page.id, input, {
      access: { passwordHash: page.passwordHash },
      language,
    });
    return { ok: true, subscription };
  } catch (err) {
    if (err instanceof ValidationError)
      return {
        ok: false,
        status: 400,
        note: invalidNote(input),
        body: { error: { code: err.code, message: err.message, issues: err.issues } },
      };
    if (err instanceof ConflictError)
      return { ok: false, status: 409, note: "taken", body: { error: { code: "conflict", message: err.message } } };
    // Endpoint URLs and secrets rest encrypted: without VIGIL_SECRET_KEY this site cannot take them.
    if (err instanceof SecretKeyError)
      return {
        ok: false,
        status: 503,
        note: "unavailable",
        body: { error: { code: "unavailable", message: "subscriptions by URL are not available on this site" } },
      };
    throw err;
  }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** The one page that shows a webhook's signing secret: answered to the form's POST, never stored or cached. */
export function secretPage(locale: Locale, pageTitle: string, back: string, secret: string): Response {
  const tr = translator(locale);
  const html = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(tr.t("secret.title"))} · ${escapeHtml(pageTitle)}</title></head>
<body style="font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;display:flex;min-height:100vh;align-items:center;justify-content:center;margin:0;padding:16px">
<main style="max-width:32rem;background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:24px">
<p style="color:#64748b;margin:0 0 4px">${escapeHtml(pageTitle)}</p>
<h1 style="font-size:20px;margin:0 0 12px">${escapeHtml(tr.t("secret.title"))}</h1>
<p>${escapeHtml(tr.t("secret.text"))}</p>
<p><code id="secret" style="display:block;padding:10px;background:#f1f5f9;border-radius:6px;word-break:break-all;font-size:15px">${escapeHtml(secret)}</code></p>
<p><a href="${escapeHtml(back)}">${escapeHtml(tr.t("secret.back"))}</a></p>
</main></body></html>`;
  return new Response(html, { status: 201, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}
