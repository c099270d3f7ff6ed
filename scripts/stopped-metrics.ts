// The launcher's answer to a scrape of a web app it has stopped for idleness: starting a Next server for each
// scrape would keep it up for good (DECISIONS: a scrape does not start it). Only with the metrics token, as
// the app itself asks for it.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Socket } from "node:net";

/** Enough for a request line and its headers; a longer head is not a scrape and goes to the app. */
const MAX_HEAD = 16 * 1024;

const digest = (s: string) => createHash("sha256").update(s).digest();

/** Whether `authorization` is `Bearer <token>` (compared in constant time). */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return !!m && timingSafeEqual(digest(m[1]!), digest(token));
}

/** The answer to a whole request head that is a GET of /metrics; null when it is not one. */
export function stoppedMetricsAnswer(head: string, app: string, token: string): string | null {
  const [line = "", ...headers] = head.split("\r\n");
  if (!/^(GET|HEAD) \/metrics(\?\S*)? HTTP\/1\.[01]$/.test(line)) return null;
  const authorization = headers.find((h) => /^authorization:/i.test(h))?.replace(/^authorization:\s*/i, "");
  const reply = (status: string, extra: string, body: string) =>
    `HTTP/1.1 ${status}\r\n${extra}Content-Type: text/plain; version=0.0.4; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${line.startsWith("HEAD") ? "" : body}`;
  if (!bearerMatches(authorization, token))
    return reply("401 Unauthorized", 'WWW-Authenticate: Bearer realm="metrics"\r\n', "metrics token required\n");
  const body = [
    "# HELP vigil_web_app_running Whether the web app's process runs (0: stopped while idle; it starts on its next request).",
    "# TYPE vigil_web_app_running gauge",
    `vigil_web_app_running{service="${app}"} 0`,
    "",
  ].join("\n");
  return reply("200 OK", "", body);
}

/**
 * Reads the start of a connection to a stopped app: answers it when it is a scrape (true), else puts back
 * what it read for the app (false). Gives up after `timeoutMs` without a whole head (false).
 */
export function answerStoppedScrape(socket: Socket, app: string, token: string, timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    const finish = (answer: string | null) => {
      clearTimeout(timer);
      socket.off("readable", onReadable).off("end", onEnd);
      if (answer === null) {
        if (buf.length > 0 && !socket.destroyed) socket.unshift(buf);
        return resolve(false);
      }
      socket.end(answer);
      resolve(true);
    };
    // A client that hung up mid-head: nothing to put back (the stream has ended), nothing to answer.
    const onEnd = () => {
      if (buf.length === 0) return finish(null);
      clearTimeout(timer);
      socket.destroy();
      resolve(true);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    const onReadable = () => {
      for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) {
        buf = Buffer.concat([buf, chunk]);
        const text = buf.toString("latin1");
        // Decided at the request line when it is not a scrape; at the end of the head when it is.
        const lineEnd = text.indexOf("\r\n");
        if (lineEnd >= 0 && stoppedMetricsAnswer(text.slice(0, lineEnd), app, "") === null) return finish(null);
        const headEnd = text.indexOf("\r\n\r\n");
        if (headEnd >= 0) return finish(stoppedMetricsAnswer(text.slice(0, headEnd), app, token));
        if (buf.length > MAX_HEAD || (lineEnd < 0 && !/^[A-Z]{0,7}( |$)/.test(text))) return finish(null);
      }
    };
    socket.on("readable", onReadable).once("end", onEnd);
  });
}
