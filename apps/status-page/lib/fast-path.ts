// Fresh copies of public pages answered before Next's router. Through Next, every answer is gzipped
// again (~8 ms for a 20-component page: a content-encoding set by the proxy is dropped) and routed; here a
// fresh copy costs a map lookup and a write. Anything else (stale, missing, protected, a query other than
// `?lang=`, RSC) goes to Next as usual, whose proxy renders and stores the copies (lib/html-cache.ts).
import { type IncomingMessage, Server, type ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { installClientStamp } from "@vigil/rate-limit";
import { isPublicHost, requestHost, sharedCopy } from "./hosts";
import { freshPage, PAGE_HEADERS, RENDER_HEADER } from "./html-cache";
import { securityHeaders } from "./security-headers";

const INSTALLED = Symbol.for("vigil.fast-path");

function serveFresh(req: IncomingMessage, res: ServerResponse): boolean {
  if ((req.method !== "GET" && req.method !== "HEAD") || !req.url) return false;
  if (req.headers.rsc !== undefined || req.headers[RENDER_HEADER] !== undefined) return false;
  const host = requestHost(req.headers["x-forwarded-host"]?.toString(), req.headers.host);
  const q = req.url.indexOf("?");
  const [path, search] = q < 0 ? [req.url, ""] : [req.url.slice(0, q), req.url.slice(q)];
  const copy = sharedCopy(host, path, search, req.headers["accept-language"]?.toString());
  const page = copy && freshPage(copy.key);
  if (!page) return false;
  const headers: Record<string, string> = { ...PAGE_HEADERS(page), ...securityHeaders(path, !isPublicHost(host)), "x-vigil-cache": "hit" };
  // The embed view keeps the frame-ancestors its render was given (the page's allowed sites).
  if (page.csp) headers["content-security-policy"] = page.csp;
  if (req.headers["if-none-match"] === page.etag) {
    res.writeHead(304, headers).end();
    return true;
  }
  let body = page.html;
  if (/\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
    page.gzip ??= new Uint8Array(gzipSync(page.html));
    body = page.gzip;
    headers["content-encoding"] = "gzip";
  }
  headers["content-length"] = String(body.byteLength);
  res.writeHead(200, headers);
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}

/** Once per process, from instrumentation: sees each request first (its socket address stamped) and answers the fresh ones. */
export function installFastPath() {
  // Stamped before the fresh-copy check, as Next's route handlers (subscribe, unlock) read it.
  installClientStamp();
  const proto = Server.prototype as Server & { [INSTALLED]?: boolean };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      try {
        if (serveFresh(args[0] as IncomingMessage, args[1] as ServerResponse)) return true;
      } catch {
        // Never in the way: Next answers.
      }
    }
    return (emit as (...a: unknown[]) => boolean).apply(this, [event, ...args]);
  } as typeof proto.emit;
}
