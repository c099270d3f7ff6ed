// What makes each Vigil process an operable service: structured logs, `/healthz`, `/metrics`, listening.
import type { Server as HttpServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { type DestinationStream, type Logger, pino } from "pino";
import { collectDefaultMetrics, Registry } from "prom-client";

export type { Logger };

/** `destination` defaults to stdout; a test passes its own stream to read what the service logs. */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? "info", destination?: DestinationStream): Logger {
  return pino({ name: service, level, base: { service } }, destination);
}

export interface ServiceContext {
  service: string;
  logger: Logger;
  registry: Registry;
}

/** Null when a scrape's Authorization header may read /metrics, else the refusal as one line (see @vigil/config's metricsRefusal). */
export type MetricsGate = (authorization: string | undefined) => string | null;

const METRICS_OFF: MetricsGate = () => "/metrics is off in this process";

/**
 * A Hono app that already answers `GET /healthz` (open, "ok" and the service's name, nothing about its
 * insides) and `GET /metrics` (Prometheus text, to the operator's scraper alone: `metrics` decides).
 */
export function createServiceApp(service: string, logger: Logger, metrics: MetricsGate = METRICS_OFF) {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  // The event-loop lag histogram samples on a timer: every 10 ms by default, which is most of an idle
  // service's CPU. Every 100 ms still shows the stalls it exists to show.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  const app = new Hono();
  app.get("/healthz", (c) => c.json({ status: "ok", service }));
  let warned = false;
  app.get("/metrics", async (c) => {
    const refusal = metrics(c.req.header("authorization"));
    if (refusal === null) return c.text(await registry.metrics(), 200, { "content-type": registry.contentType });
    // Once per process: enough for the operator to see why Prometheus gets 401s, not a line per scrape.
    if (!warned) logger.warn({ reason: refusal }, "metrics scrape refused");
    warned = true;
    return c.text(`${refusal}\n`, 401, { "cache-control": "no-store", "www-authenticate": 'Bearer realm="metrics"' });
  });
  return { app, registry, ctx: { service, logger, registry } satisfies ServiceContext };
}

export interface Started {
  port: number;
  close(): Promise<void>;
}

export interface ListenOptions {
  port: number;
  host: string;
  logger: Logger;
  onShutdown?: () => Promise<void>;
  handleSignals?: boolean;
}

/** `listen` on the service's PORT and HOST variables. */
export function listenOnEnv(app: Hono, env: { PORT: number; HOST: string }, opts: Omit<ListenOptions, "port" | "host">): Promise<Started> {
  return listen(app, { port: env.PORT, host: env.HOST, ...opts });
}

/** The server's open connections, and whether each has a request under way (asked, not yet answered). */
function requestsInFlight(server: HttpServer): { sockets: Set<Socket>; has: (socket: Socket) => boolean } {
  const sockets = new Set<Socket>();
  const inFlight = new Map<Socket, number>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => {
      sockets.delete(socket);
      inFlight.delete(socket);
    });
  });
  server.on("request", (req, res) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once("close", () => {
      const n = (inFlight.get(socket) ?? 1) - 1;
      if (n > 0) inFlight.set(socket, n);
      else inFlight.delete(socket);
    });
  });
  return { sockets, has: (socket) => inFlight.has(socket) };
}

/** Listens, and on SIGINT/SIGTERM closes the server then runs `onShutdown` before exiting. */
export async function listen(app: Hono, opts: ListenOptions): Promise<Started> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: opts.port, hostname: opts.host }, () => resolve(s));
    s.once("error", reject);
  });
  // Idle keep-alive connections outlive a client's or proxy's (undici 4 s, load balancers 60 s): the server is
  // never the side that closes a connection the other is about to reuse, which the other sees as a reset.
  Object.assign(server, { keepAliveTimeout: 65_000, headersTimeout: 66_000 });
  const port = (server.address() as AddressInfo).port;
  opts.logger.info({ port, host: opts.host }, "listening");
  const busy = requestsInFlight(server as unknown as HttpServer);
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await new Promise<void>((r) => {
        // close() drops only the connections idle at that moment; one whose request ends later would be kept
        // for the whole keep-alive time, and one that never sent a request (a client that gave up between
        // connecting and asking) until the headers timeout: keep dropping every connection with no request
        // under way, so a shutdown waits for answers only.
        const sweep = setInterval(() => {
          for (const socket of busy.sockets) if (!busy.has(socket)) socket.destroy();
        }, 100);
        sweep.unref();
        server.close(() => {
          clearInterval(sweep);
          r();
        });
      });
      await opts.onShutdown?.();
    })());
  if (opts.handleSignals !== false) {
    for (const sig of ["SIGINT", "SIGTERM"] as const) {
      process.once(sig, () => {
        opts.logger.info({ signal: sig }, "shutting down");
        const timer = setTimeout(() => process.exit(1), 10_000);
        timer.unref();
        close().then(
          () => process.exit(0),
          (err) => {
            opts.logger.error({ err }, "shutdown failed");
            process.exit(1);
          },
        );
      });
    }
  }
  return { port, close };
}
