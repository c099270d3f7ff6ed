// The one test kit: free ports, polling, seeded randomness, child processes and a loopback mail API.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, createServer } from "node:net";

// /metrics answers only the operator's token: a test process makes one, which the services it starts inherit.
process.env.VIGIL_METRICS_TOKEN ||= randomBytes(24).toString("hex");

/** The headers a scrape of a service's /metrics sends in tests, as Prometheus sends the operator's token. */
export const metricsHeaders = (): Record<string, string> => ({ authorization: `Bearer ${process.env.VIGIL_METRICS_TOKEN}` });

/** A port the OS just handed out and released. */
// Ports below Linux's ephemeral range (32768+): there an outgoing connection of another test can never take the
// port between our check and the server's bind. Random, and never handed out twice by one process.
const LOW = 20_000;
const HIGH = 32_000;
const handedOut = new Set<number>();

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

/** A free loopback port for a server the test starts. */
export async function freePort(): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port between ${LOW} and ${HIGH}`);
}

/** `n` distinct free ports. */
export async function freePorts(n: number): Promise<number[]> {
  const ports: number[] = [];
  for (let i = 0; i < n; i++) ports.push(await freePort());
  return ports;
}

/**
 * Polls `check` until it returns something truthy and returns that. An error thrown by `check` ends the wait at
 * once (a process that exited will not come back); timing out names `what`.
 */
export async function until<T>(
  what: string,
  check: () => Promise<T | false | null | undefined> | T | false | null | undefined,
  timeoutMs = 30_000,
  every = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** mulberry32: a small seeded PRNG, so a failing generated input can be replayed from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A process of ours; its output is kept (the last 200 kB) for assertions and failure messages. */
export class Proc {
  log = "";
  exit: Promise<number | null>;
  constructor(readonly child: ChildProcess) {
    child.stdout?.on("data", (d) => (this.log = (this.log + d).slice(-200_000)));
    child.stderr?.on("data", (d) => (this.log = (this.log + d).slice(-200_000)));
    this.exit = new Promise((r) => child.once("exit", (code) => r(code)));
  }
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }
  async stop(signal: NodeJS.Signals = "SIGKILL") {
    if (!this.running) return;
    this.child.kill(signal);
    await this.exit;
  }
}

/** Resolves once `url` answers 2xx; fails at once with the process's log if it exits first. */
export function untilHealthy(name: string, url: string, proc: Proc, timeoutMs = 120_000): Promise<true> {
  return until(
    `${name} ${url}`,
    async () => {
      if (!proc.running) throw new Error(`${name} exited:\n${proc.log.slice(-3000)}`);
      return fetch(url).then(
        (r) => r.ok,
        () => false,
      );
    },
    timeoutMs,
  );
}

export interface Mail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** The Authorization header the API received. */
  auth: string;
}

/** A loopback stand-in for the e-mail provider's API (Resend-shaped, POST /emails): keeps every mail sent. */
export async function startMailApi() {
  const mails: Mail[] = [];
  const server = createHttpServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    if (req.method !== "POST" || req.url !== "/emails") return void res.writeHead(404).end();
    mails.push({ ...(JSON.parse(body) as Omit<Mail, "auth">), auth: String(req.headers.authorization ?? "") });
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: `m${mails.length}` }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    mails,
    /** The first link in the newest mail to `to` whose text matches `pattern` (among mails after index `after`). */
    async linkFor(to: string, pattern: RegExp, after = 0): Promise<string> {
      const mail = await until(
        `a mail to ${to}`,
        () => mails.slice(after).findLast((m) => m.to.includes(to) && pattern.test(m.text)),
        15_000,
      );
      return /https?:\/\/\S+/.exec(mail.text)![0];
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * A loopback stand-in for a customer's web server on their domain: answers each token in `serve` as the
 * body of any path ending in that token (what a domain owner publishes to prove the domain), 404 otherwise.
 */
export async function startDomainHost() {
  const tokens = new Set<string>();
  const requests: { host: string; path: string }[] = [];
  const server = createHttpServer((req, res) => {
    const path = req.url ?? "/";
    requests.push({ host: String(req.headers.host ?? ""), path });
    const token = path.split("/").pop() ?? "";
    if (!tokens.has(token)) return void res.writeHead(404).end("not found");
    res.writeHead(200, { "content-type": "text/plain" }).end(`${token}\n`);
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return {
    /** What the verifier connects to instead of the domain's address. */
    hostPort: `127.0.0.1:${port}`,
    requests,
    serve: (token: string) => void tokens.add(token),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
