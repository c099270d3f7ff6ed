// Rendered public pages kept briefly in memory: a burst of visitors costs one render per
// page every few seconds instead of one each. Only pages without a password and without a query are kept.
import { createHash, randomBytes } from "node:crypto";
import { withoutRuntime } from "./no-runtime";

export interface RenderedPage {
  at: number;
  html: Uint8Array<ArrayBuffer>;
  /** Made once, by the first visitor served before Next (lib/fast-path.ts). */
  gzip?: Uint8Array<ArrayBuffer>;
  contentType: string;
  contentLanguage: string;
  cacheControl: string;
  etag: string;
  /** The Content-Security-Policy the render was sent with (the embed view's names who may frame it). */
  csp: string | null;
}

// Shared by the proxy's bundle and instrumentation's (the fast path): one store per process.
const STORE = Symbol.for("vigil.rendered-pages");
const global = globalThis as { [STORE]?: { entries: Map<string, RenderedPage>; token: string } };
global[STORE] ??= { entries: new Map(), token: randomBytes(16).toString("hex") };
const shared = global[STORE];
const entries = shared.entries;

/** Marks our own render request; the value is random per process, so only we can skip the cache. */
export const RENDER_HEADER = "x-vigil-render";
export const RENDER_TOKEN = shared.token;

/**
 * Served as is while fresh; then served while one re-render runs in the background, until too old.
 * With the 5 s data memo, an update shows within ~10 s (plus the CDN's s-maxage), under the 30 s promise.
 */
export const FRESH_MS = 5_000;
export const STALE_MS = 20_000;
const MAX_ENTRIES = 500;

const rendering = new Map<string, Promise<RenderedPage | null>>();

/** One render at a time per key; anything but a 200 HTML page is not kept. */
function render(key: string, url: string, headers: Record<string, string>, cacheControl: string): Promise<RenderedPage | null> {
  const running = rendering.get(key);
  if (running) return running;
  const job = (async () => {
    const res = await fetch(url, {
      headers: { ...headers, [RENDER_HEADER]: RENDER_TOKEN, "accept-encoding": "identity" },
      redirect: "manual",
      cache: "no-store",
      signal: AbortSignal.timeout(15_000),
    });
    const contentType = res.headers.get("content-type") ?? "";
    if (res.status !== 200 || !contentType.startsWith("text/html")) {
      await res.body?.cancel();
      entries.delete(key);
      return null;
    }
    const html = new TextEncoder().encode(withoutRuntime(await res.text()));
    const page: RenderedPage = {
      at: Date.now(),
      html,
      contentType,
      contentLanguage: res.headers.get("content-language") ?? "",
      cacheControl,
      etag: `"${createHash("sha1").update(html).digest("base64url")}"`,
      csp: res.headers.get("content-security-policy"),
    };
    if (entries.size >= MAX_ENTRIES && !entries.has(key)) entries.delete(entries.keys().next().value!);
    entries.set(key, page);
    return page;
  })()
    .catch(() => null)
    .finally(() => rendering.delete(key));
  rendering.set(key, job);
  return job;
}

/** A fresh page for `key`, or undefined (then Next answers, and refreshes it). */
export function freshPage(key: string, now = Date.now()): RenderedPage | undefined {
  const hit = entries.get(key);
  return hit && now - hit.at < FRESH_MS ? hit : undefined;
}

/**
 * The rendered page for `key` (see cacheKey in lib/hosts.ts), rendering it through `url` when
 * missing or too old; null when it is not a cacheable page (the visitor is then served normally).
 */
export async function renderedPage(
  key: string,
  url: string,
  headers: Record<string, string>,
  cacheControl: string,
  now = Date.now(),
): Promise<{ page: RenderedPage; state: "hit" | "stale" | "miss" } | null> {
  const hit = entries.get(key);
  if (hit && now - hit.at < FRESH_MS) return { page: hit, state: "hit" };
  if (hit && now - hit.at < STALE_MS) {
    void render(key, url, headers, cacheControl);
    return { page: hit, state: "stale" };
  }
  const page = await render(key, url, headers, cacheControl);
  return page ? { page, state: "miss" } : null;
}

/** The origin this server listens on (set by `next start` and the standalone server). */
export const selfOrigin = () => process.env.__NEXT_PRIVATE_ORIGIN || `http://127.0.0.1:${process.env.PORT || 3000}`;

/** The headers every cached copy is served with. */
export const PAGE_HEADERS = (page: RenderedPage): Record<string, string> => ({
  "content-type": page.contentType,
  "cache-control": page.cacheControl,
  etag: page.etag,
  // The language follows Accept-Language: a shared cache keeps one copy per value.
  vary: "accept-encoding, accept-language",
  ...(page.contentLanguage ? { "content-language": page.contentLanguage } : {}),
});
