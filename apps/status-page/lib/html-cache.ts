// Rendered public pages kept briefly in memory: a burst of visitors costs one render per
// page every few seconds instead of one each. Only pages without a password and without a query are kept.
import { createHash, randomBytes } from "node:crypto";

/** Marks our own render request; the value is random per process, so only we can skip the cache. */
export const RENDER_HEADER = "x-vigil-render";
export const RENDER_TOKEN = randomBytes(16).toString("hex");

/**
 * Served as is while fresh; then served while one re-render runs in the background, until too old.
 * With the 5 s data memo, an update shows within ~10 s (plus the CDN's s-maxage), under the 30 s promise.
 */
export const FRESH_MS = 5_000;
export const STALE_MS = 20_000;
const MAX_ENTRIES = 500;

export interface RenderedPage {
  at: number;
  html: Uint8Array<ArrayBuffer>;
  contentType: string;
  etag: string;
}

const entries = new Map<string, RenderedPage>();
const rendering = new Map<string, Promise<RenderedPage | null>>();

/** One render at a time per key; anything but a 200 HTML page is not kept. */
function render(key: string, url: string, headers: Record<string, string>): Promise<RenderedPage | null> {
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
    const html = new Uint8Array(await res.arrayBuffer());
    const page: RenderedPage = {
      at: Date.now(),
      html,
      contentType,
      etag: `"${createHash("sha1").update(html).digest("base64url")}"`,
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

/**
 * The rendered page for `key` (path plus the custom-domain slug), rendering it through `url` when
 * missing or too old; null when it is not a cacheable page (the visitor is then served normally).
 */
export async function renderedPage(
  key: string,
  url: string,
  headers: Record<string, string>,
  now = Date.now(),
): Promise<{ page: RenderedPage; state: "hit" | "stale" | "miss" } | null> {
  const hit = entries.get(key);
  if (hit && now - hit.at < FRESH_MS) return { page: hit, state: "hit" };
  if (hit && now - hit.at < STALE_MS) {
    void render(key, url, headers);
    return { page: hit, state: "stale" };
  }
  const page = await render(key, url, headers);
  return page ? { page, state: "miss" } : null;
}

/** The origin this server listens on (set by `next start` and the standalone server). */
export const selfOrigin = () => process.env.__NEXT_PRIVATE_ORIGIN || `http://127.0.0.1:${process.env.PORT || 3000}`;
