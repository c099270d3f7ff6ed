import { isSecretHeader } from "../../fields";
import type { ExchangeRequest } from "./exchange";

export const MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const BODY_HEADERS = new Set(["content-type", "content-length", "content-encoding", "transfer-encoding"]);

export type RedirectStep = { next: ExchangeRequest } | { error: string } | undefined;

/** Follows a redirect chain: at most MAX_REDIRECTS hops, and a URL seen twice with the same method is a loop. */
export class RedirectChain {
  #seen: string[];

  /** `secretHeaders`: the names the user marked secret, dropped like credentials on a cross-origin hop. */
  constructor(
    first: ExchangeRequest,
    private readonly secretHeaders: readonly string[] = [],
  ) {
    this.#seen = [`${first.method} ${first.url.href}`];
  }

  /** The next request, an error, or undefined when this response is the final one. */
  follow(current: ExchangeRequest, statusCode: number, location: string | undefined): RedirectStep {
    if (!REDIRECT_STATUSES.has(statusCode) || !location) return undefined;
    let url: URL;
    try {
      url = new URL(location, current.url);
    } catch {
      return { error: `redirect from ${current.url.href} to an invalid Location ${JSON.stringify(location)}` };
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return { error: `redirect to unsupported URL ${url.href}` };
    // Like browsers: 303, and 301/302 after a POST, continue as a GET without the body.
    const toGet = statusCode === 303 || ((statusCode === 301 || statusCode === 302) && current.method === "POST");
    const method = toGet && current.method !== "HEAD" ? "GET" : current.method;
    const crossOrigin = url.origin !== current.url.origin;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(current.headers)) {
      const name = k.toLowerCase();
      if ((crossOrigin && isSecretHeader(name, this.secretHeaders)) || (toGet && BODY_HEADERS.has(name))) continue;
      headers[k] = v;
    }
    const key = `${method} ${url.href}`;
    const urls = [...this.#seen.map((s) => s.slice(s.indexOf(" ") + 1)), url.href];
    if (this.#seen.includes(key)) return { error: `redirect loop: ${urls.slice(urls.indexOf(url.href)).join(" → ")}` };
    if (this.#seen.length > MAX_REDIRECTS)
      return { error: `too many redirects: stopped after ${MAX_REDIRECTS} hops (${urls[0]} → … → ${url.href})` };
    this.#seen.push(key);
    return { next: { url, method, headers, ...(!toGet && current.body !== undefined && { body: current.body }) } };
  }
}
