import { mkdtempSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Monitor, MonitorInput } from "@vigil/api-contract";
import type { Io } from "../io";

/** An in-memory Io whose output the test reads back. The config file defaults to a fresh temp path. */
export function capture(env: Record<string, string | undefined> = {}, extra: Partial<Io> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "vigil-cli-"));
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    stdout: (s) => out.push(s),
    stderr: (s) => err.push(s),
    env: { VIGIL_CONFIG: join(dir, "config.json"), ...env },
    cwd: dir,
    ...extra,
  };
  return { io, dir, stdout: () => out.join(""), stderr: () => err.join("") };
}

export type Recorded = { method: string; path: string; headers: IncomingHttpHeaders; body: unknown };
export type Reply = { status: number; body?: unknown };

/**
 * A loopback HTTP server standing in for the Vigil server: records every request and answers from
 * `routes` ("METHOD /path" → reply). Unknown routes get a contract-shaped 404.
 */
export async function loopback(routes: Record<string, Reply | ((req: Recorded) => Reply)>) {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const recorded: Recorded = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
      };
      requests.push(recorded);
      const route = routes[`${recorded.method} ${recorded.path}`];
      const reply =
        typeof route === "function"
          ? route(recorded)
          : (route ?? { status: 404, body: { error: { code: "not_found", message: "no such route" } } });
      res.writeHead(reply.status, reply.body === undefined ? {} : { "content-type": "application/json" });
      res.end(reply.body === undefined ? undefined : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on: bind one, then let it go. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** What the server would store for an input: the REST `Monitor` shape. */
export function stored(input: MonitorInput, id: number): Monitor {
  const common = {
    id,
    key: input.key ?? null,
    name: input.name ?? "",
    description: input.description,
    frequency: input.frequency,
    active: input.active,
    public: input.public,
    regions: input.regions,
    retry: input.retry,
    failureThreshold: input.failureThreshold,
    successThreshold: input.successThreshold,
    timeout: input.timeout,
    degradedAfter: input.degradedAfter ?? null,
    openTelemetry: input.openTelemetry
      ? { ...input.openTelemetry, headers: Object.fromEntries(Object.keys(input.openTelemetry.headers).map((k) => [k, "***"])) }
      : null,
    channels: input.channels ?? [],
    tags: input.tags ?? [],
    status: "active" as const,
    health: "ok" as const,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
  };
  const { kind, request } = input;
  return { ...common, kind, request, ...("assertions" in input && { assertions: input.assertions }) } as Monitor;
}
