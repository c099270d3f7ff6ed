import { Readable } from "node:stream";
import { createGzip, type Gzip } from "node:zlib";
import { MetricsQuery } from "@vigil/api-contract";
import { PieceBuffers, parseTagLabels, prometheusMetrics } from "@vigil/core";
import { Hono } from "hono";
import { accepts } from "hono/accepts";
import type { Env } from "../context";
import { withQuery } from "../openapi";

/**
 * Text written ahead of the compressor and the socket: with a piece at a time (a 16 KiB mark) writing and
 * compressing took turns; with 1 MiB they overlap (16 MiB at load 7: ~155 → ~110 ms from first byte to last).
 */
const AHEAD_BYTES = 1024 * 1024;

function* startingWith<T>(first: T, rest: Iterator<T>): Generator<T> {
  yield first;
  for (let r = rest.next(); !r.done; r = rest.next()) yield r.value;
}

/** Pieces of text the compressor has read, written into again by later scrapes. */
const spare = new PieceBuffers();

type Piece = Uint8Array<ArrayBuffer>;
/** Writes the pieces into the compressor up to `AHEAD_BYTES` ahead of it, each given back once compressed. */
async function compress(first: IteratorResult<Piece>, rest: Iterator<Piece>, gz: Gzip) {
  let ahead = 0;
  let wake = () => {};
  gz.once("close", () => wake());
  for (let r = first; !r.done; r = rest.next()) {
    const piece = r.value;
    ahead += piece.length;
    gz.write(piece, (err) => {
      ahead -= piece.length;
      if (!err) spare.give(piece);
      wake();
    });
    while (ahead > AHEAD_BYTES && !gz.destroyed) await new Promise<void>((resolve) => (wake = resolve));
    // The scraper hung up: nothing more to write.
    if (gz.destroyed) return;
  }
  gz.end();
}

/** Audience: any valid API key of the workspace (Prometheus sends it as `authorization: Bearer`); its own monitors only. */
export const metricsRoutes = new Hono<Env>();

metricsRoutes.get(
  "/",
  withQuery({
    method: "get",
    path: "/v1/metrics",
    summary: "Every monitor and location as Prometheus series (text exposition format 0.0.4)",
    tag: "metrics",
    auth: "apiKey",
    query: MetricsQuery,
  }),
  async (c) => {
    const tagLabels = parseTagLabels(c.req.valid("query").tags);
    // Prometheus asks for gzip by default. Level 1: the text shrinks ~20 times for a third of level 6's CPU.
    const gzip = accepts(c, { header: "Accept-Encoding", supports: ["gzip"], default: "identity" }) === "gzip";
    // Only the compressor gives pieces back, once read; the socket holds its own until they are sent.
    const pieces = await prometheusMetrics(c.var.deps.db, c.var.workspace.id, { tagLabels, buffers: gzip ? spare : undefined });
    // Up to the first piece of text, a failure still answers an error; after it, it can only cut the answer short.
    const first = pieces.next();
    const headers: Record<string, string> = {
      "content-type": "text/plain; version=0.0.4; charset=utf-8",
      "cache-control": "no-store",
      vary: "accept-encoding",
      // Headers sent at once (as Hono's stream helpers do), not after the adapter has read the first pieces: a
      // later failure can only close the connection early, which a scraper reads as a failed scrape.
      "transfer-encoding": "chunked",
    };
    if (!gzip) {
      const text = Readable.from(first.done ? [] : startingWith(first.value, pieces), { objectMode: false, highWaterMark: AHEAD_BYTES });
      return c.body(Readable.toWeb(text) as ReadableStream, 200, headers);
    }
    // Compressed as it is written (zlib works off the event loop), and the scraper inflates as it arrives.
    // Its output in 64 KiB pieces (16 KiB by default): fewer writes to the socket and wake-ups of the scraper.
    const gz = createGzip({ level: 1, chunkSize: 64 * 1024 });
    compress(first, pieces, gz).catch((err: Error) => {
      c.var.deps.logger.error({ err: err.message }, "metrics scrape cut short");
      gz.destroy(err);
    });
    return c.body(Readable.toWeb(gz) as ReadableStream, 200, { ...headers, "content-encoding": "gzip" });
  },
);
