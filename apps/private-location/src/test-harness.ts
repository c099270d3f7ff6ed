// Test-only: the real server and the real probe as separate processes, on loopback, with a real sqld.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type IncomingHttpHeaders } from "node:http";
import { createServer as createTcpServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ProbeMonitor, type Region, TcpCheck } from "@vigil/api-contract";
import { createApiKey, createPrivateLocation, createWorkspace, setLimits } from "@vigil/core";
import { checkResult } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { freePort } from "@vigil/testing";
import { Service, serviceBundle } from "@vigil/testing/service";

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs: number,
  everyMs = 200,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let lastErr: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (err) {
      lastErr = err;
    }
    if (Date.now() > until)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastErr ? ` (last error: ${String(lastErr)})` : ""}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/** One of our services as a process, from the bundle production runs (apps/<app>/dist/main.js); does not wait. */
export function spawnApp(app: "server" | "private-location", env: Record<string, string>): Service {
  const proc = new Service({ name: app, entry: serviceBundle(app), env });
  void proc.start(false);
  return proc;
}

export interface Stack {
  database: TestDatabase;
  serverUrl: string;
  server: Service;
  apiKey: string;
  serviceKey: string;
  locationId: number;
  /** Starts the server process again on the same port (after `stopServer`). */
  startServer(): Promise<void>;
  stopServer(signal?: NodeJS.Signals): Promise<void>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read responses ad hoc
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Every stored result of this location. */
  /** Results stored from this location; `slot` is what the store dedupes on (monitor and slot). */
  results(): Promise<{ slot: string; monitorId: number; cronTimestamp: number }[]>;
  close(): Promise<void>;
}

/** sqld + the server as a process + a workspace with an API key and a private location in `region`. */
export async function startStack(region: Region = "iad"): Promise<Stack> {
  const database = await startTestDatabase();
  const ws = await createWorkspace(database.db, { name: "Probe test" }, "operator");
  await setLimits(database.db, ws.id, "unlimited", "operator");
  const { key: apiKey } = await createApiKey(database.db, ws.id, { name: "test" }, "operator");
  const { location, key: serviceKey } = await createPrivateLocation(database.db, ws.id, { name: "test probe", region }, "operator");
  const port = await freePort();
  const serverUrl = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: "127.0.0.1",
    REDIS_URL: "redis://127.0.0.1:6379",
    QUEUE_PREFIX: `pl-${randomBytes(4).toString("hex")}`,
    PROBE_WAIT_MS: "2000",
    LOG_LEVEL: "silent",
  };
  const stack: Stack = {
    database,
    serverUrl,
    server: undefined as unknown as Service,
    apiKey,
    serviceKey,
    locationId: location.id,
    async startServer() {
      stack.server = spawnApp("server", env);
      await waitFor("the server to answer /healthz", () => healthy(serverUrl), 30_000);
    },
    async stopServer(signal = "SIGKILL") {
      await stack.server.stop(signal);
    },
    async api(method, path, body) {
      const res = await fetch(`${serverUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, ...(body !== undefined && { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async results() {
      const rows = await database.db
        .select({
          monitorId: checkResult.monitorId,
          cronTimestamp: checkResult.cronTimestamp,
          locationId: checkResult.locationId,
        })
        .from(checkResult);
      return rows.filter((r) => r.locationId === location.id).map((r) => ({ ...r, slot: `${r.monitorId}:${r.cronTimestamp}` }));
    },
    async close() {
      await stack.server?.stop("SIGKILL");
      await database.close();
    },
  };
  await stack.startServer();
  return stack;
}

export interface ProbeProc extends Service {
  url: string;
  dataDir: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read /status ad hoc
  status(): Promise<any>;
}

/** The probe as a process; resolves once it answers /healthz. */
export async function startProbe(env: Record<string, string>, opts: { dataDir?: string; port?: number } = {}): Promise<ProbeProc> {
  const port = opts.port ?? (await freePort());
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "vigil-probe-"));
  const proc = spawnApp("private-location", {
    PORT: String(port),
    HOST: "127.0.0.1",
    PROBE_DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    ...env,
  }) as ProbeProc;
  const url = `http://127.0.0.1:${port}`;
  Object.assign(proc, {
    url,
    dataDir,
    async status() {
      const res = await fetch(`${url}/status`, { signal: AbortSignal.timeout(2000) });
      return res.json();
    },
  });
  const died = proc.exit.then((code) => Promise.reject(new Error(`the probe exited (${code}):\n${proc.log}`)));
  died.catch(() => {}); // a later, deliberate kill is not an error
  await Promise.race([waitFor("the probe to answer /healthz", () => healthy(url), 30_000), died]);
  return proc;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** TCP listeners on loopback that count the connections they get. */
export async function tcpTarget(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let n = 0;
  const server: Server = createTcpServer((socket) => {
    n++;
    socket.on("error", () => {});
    socket.end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => n,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export interface CollectedExport {
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON when the body was JSON, else the raw text. */
  body: unknown;
}

/** A stand-in OTLP/HTTP collector: keeps every POST it gets (JSON bodies decoded) and answers 200. */
export async function otlpCollector(): Promise<{ url: string; received: CollectedExport[]; close(): Promise<void> }> {
  const received: CollectedExport[] = [];
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {}
      received.push({ path: req.url ?? "", headers: req.headers, body });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The parts of the OTLP/JSON metrics encoding the tests read. */
export interface OtlpPoint {
  attributes: { key: string; value: { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean } }[];
  sum?: number;
  count?: number | string;
  asInt?: number | string;
  asDouble?: number;
}
export interface OtlpMetric {
  name: string;
  unit?: string;
  histogram?: { dataPoints: OtlpPoint[] };
  sum?: { dataPoints: OtlpPoint[] };
}
interface OtlpBody {
  resourceMetrics?: { scopeMetrics?: { metrics?: OtlpMetric[] }[] }[];
}

/** Every metric in the collected OTLP JSON exports. */
export function metricsIn(exports: CollectedExport[]): OtlpMetric[] {
  return exports.flatMap((e) =>
    ((e.body as OtlpBody | null)?.resourceMetrics ?? []).flatMap((rm) => (rm.scopeMetrics ?? []).flatMap((sm) => sm.metrics ?? [])),
  );
}

/** A data point's attributes, every value as a string. */
export function attributesOf(p: OtlpPoint): Record<string, string> {
  return Object.fromEntries(
    p.attributes.map((a) => [a.key, String(a.value.stringValue ?? a.value.intValue ?? a.value.doubleValue ?? a.value.boolValue)]),
  );
}

/** A TCP monitor of 127.0.0.1:`port` as the server hands it to the probe: every 30 s, version 1, no OpenTelemetry unless `over` says. */
export const tcpProbeMonitor = (id: number, name: string, port: number, over: Partial<ProbeMonitor> = {}): ProbeMonitor => ({
  id,
  name,
  frequency: "30s",
  intervalMs: 30_000,
  version: 1,
  check: TcpCheck.parse({ kind: "tcp", host: "127.0.0.1", port }),
  openTelemetry: null,
  ...over,
});
