// The launcher's socket activation (scripts/on-demand.ts) against a real app process: the first request is
// answered by the app it starts, an idle app is stopped, and requests that arrive while it starts, stops or
// comes back from a crash wait for it instead of failing.
import { type ChildProcess, spawn } from "node:child_process";
import { request } from "node:http";
import { connect } from "node:net";
import { freePort, until } from "@vigil/testing";
import { afterEach, describe, expect, it } from "vitest";
import { OnDemand, type OnDemandOptions } from "../scripts/on-demand";

// Answers its pid; on SIGINT it exits a moment later, like a server finishing its requests.
const APP = `
const server = require("node:http").createServer((req, res) => {
  let body = "";
  req.on("data", (d) => (body += d)).on("end", () => res.end(process.pid + " " + req.method + " " + req.url + " " + body));
});
server.keepAliveTimeout = 65000; // as the web apps keep idle connections
server.listen(Number(process.env.PORT), "127.0.0.1");
process.on("SIGINT", () => setTimeout(() => process.exit(0), 300));
`;

/** One request on its own connection (no keep-alive), as a browser's first one. */
function get(port: number, path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: "127.0.0.1", path, method: body ? "POST" : "GET", agent: false }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d)).on("end", () => resolve({ status: res.statusCode!, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

interface Harness {
  port: number;
  o: OnDemand;
  app: () => ChildProcess | undefined;
  starts: number;
  stops: number;
  /** Called when the app is asked to stop, before it exits. */
  onStop?: () => void;
  /** Set at teardown: the app killed then is not a crash to restart (it would outlive the test). */
  closed?: boolean;
}

let current: Harness | undefined;
afterEach(() => {
  if (current) current.closed = true;
  current?.o.close();
  current?.app()?.kill("SIGKILL");
  current = undefined;
});

/** A raw TCP client that keeps its side open after the app's hang-up, and what it has received so far. */
function rawClient(port: number) {
  const client = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
  let received = "";
  client.on("data", (d) => (received += d));
  return { client, answer: () => received };
}

const METRICS_TOKEN = "metrics-token-of-this-run";

async function harness(idleMs: number, metrics?: OnDemandOptions["metrics"]): Promise<Harness> {
  const [port, innerPort] = [await freePort(), await freePort()];
  let child: ChildProcess | undefined;
  const h: Harness = { port, o: undefined as unknown as OnDemand, app: () => child, starts: 0, stops: 0 };
  const start = () => {
    h.starts++;
    child = spawn(process.execPath, ["-e", APP], { env: { ...process.env, PORT: String(innerPort) }, stdio: "ignore" });
    child.once("exit", (_code, signal) => {
      child = undefined;
      // As the launcher does: an exit it did not ask for is a crash, restarted.
      if (signal === "SIGKILL" && !h.closed) setTimeout(() => !h.closed && start(), 200);
      h.o.exited();
    });
  };
  h.o = new OnDemand({
    host: "127.0.0.1",
    port,
    innerPort,
    idleMs,
    start,
    stop: () => {
      h.stops++;
      child?.kill("SIGINT");
      h.onStop?.();
    },
    log: () => {},
    metrics,
  });
  await h.o.listen();
  current = h;
  return h;
}

describe("web apps on demand", () => {
  it("starts the app on the first request and every waiting request is answered by it", async () => {
    const h = await harness(60_000);
    expect(h.app()).toBeUndefined();
    expect(h.o.running).toBe(false);
    const answers = await Promise.all([get(h.port, "/first"), ...Array.from({ length: 5 }, (_, i) => get(h.port, `/p${i}`, `body ${i}`))]);
    const pid = h.app()!.pid;
    expect(answers[0]).toEqual({ status: 200, text: `${pid} GET /first ` });
    for (const [i, a] of answers.slice(1).entries()) expect(a).toEqual({ status: 200, text: `${pid} POST /p${i} body ${i}` });
    expect(h.starts).toBe(1);
    // Once up, a request goes straight through to the same process.
    expect((await get(h.port, "/again")).text).toBe(`${pid} GET /again `);
    expect(h.starts).toBe(1);
  });

  it("stops the app when idle and starts it again on the next request", async () => {
    const h = await harness(200);
    const first = (await get(h.port, "/")).text.split(" ")[0];
    await until("the idle app stopped", async () => (h.stops === 1 && h.app() === undefined ? true : undefined), 10_000);
    expect(h.o.running).toBe(false);
    const second = await get(h.port, "/later");
    expect(second.status).toBe(200);
    expect(second.text.split(" ")[0]).not.toBe(first);
    expect(h.starts).toBe(2);
  });

  it("a connection the app has closed no longer counts, though its client never closes its side", async () => {
    const h = await harness(200);
    const { client, answer } = rawClient(h.port);
    client.write("GET /half-open HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    await until("the answer and the app's hang-up", () => client.readableEnded, 10_000);
    expect(answer()).toMatch(/^HTTP\/1\.1 200 [\s\S]* GET \/half-open $/);
    await until("the idle app stopped", () => h.stops === 1 && h.app() === undefined, 10_000);
    client.destroy();
  });

  it("a kept-alive connection left idle does not keep the app up, and requests on it until then are answered", async () => {
    const h = await harness(3000);
    const { client, answer } = rawClient(h.port);
    const ask = async (path: string) => {
      client.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      await until(`the answer to ${path}`, () => answer().includes(`GET ${path} `), 10_000, 20);
    };
    await ask("/kept");
    const pid = h.app()!.pid;
    // Requests on it keep the app up for longer than the idle time, as long as each comes within it.
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      await ask(`/again${i}`);
    }
    expect(h.stops).toBe(0);
    expect(answer()).toContain(`${pid} GET /again3 `);
    // Then nothing moves on it: the app stops though the connection is open, and the connection ends with it.
    await until("the idle app stopped", () => h.stops === 1 && h.app() === undefined, 10_000);
    await until("the connection closed", () => client.readableEnded, 10_000);
    client.destroy();
  });

  it("a client that half-closes after its request still gets the whole answer", async () => {
    const h = await harness(60_000);
    const { client, answer } = rawClient(h.port);
    client.end("POST /half-closed HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbody");
    await until("the whole answer", () => client.readableEnded, 10_000);
    expect(answer()).toMatch(/^HTTP\/1\.1 200 [\s\S]* POST \/half-closed body$/);
  });

  it("a request that arrives while the app stops is answered by its next start", async () => {
    const h = await harness(200);
    await get(h.port, "/");
    const during = new Promise<{ status: number; text: string }>((resolve, reject) => {
      h.onStop = () => get(h.port, "/during-stop").then(resolve, reject);
    });
    const answer = await during;
    expect(answer.status).toBe(200);
    expect(answer.text).toMatch(/ GET \/during-stop $/);
    expect(h.starts).toBe(2);
  });

  it("requests during a crash's restart wait for the restarted app", async () => {
    const h = await harness(60_000);
    await get(h.port, "/");
    const crashed = h.app()!;
    crashed.kill("SIGKILL");
    await until("the crash seen", async () => (h.app() === undefined ? true : undefined), 10_000);
    const answer = await get(h.port, "/after-crash");
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(`${h.app()!.pid} GET /after-crash `);
    expect(h.app()!.pid).not.toBe(crashed.pid);
    expect(h.stops).toBe(0);
  });

  it("closing refuses new connections", async () => {
    const h = await harness(60_000);
    await get(h.port, "/");
    h.o.close();
    await expect(get(h.port, "/")).rejects.toThrow();
  });

  it("a scrape of a stopped app's /metrics is answered by the launcher, only with the metrics token, and does not start it", async () => {
    const h = await harness(200, { service: "status-page", token: METRICS_TOKEN });
    const scrape = (authorization?: string) =>
      new Promise<{ status: number; text: string; auth?: string }>((resolve, reject) => {
        const headers = authorization ? { authorization } : {};
        const req = request({ port: h.port, host: "127.0.0.1", path: "/metrics", agent: false, headers }, (res) => {
          let text = "";
          res.on("data", (d) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode!, text, auth: res.headers["www-authenticate"] }));
        });
        req.on("error", reject).end();
      });
    expect(await scrape()).toEqual({ status: 401, text: "metrics token required\n", auth: 'Bearer realm="metrics"' });
    expect((await scrape("Bearer wrong")).status).toBe(401);
    const ok = await scrape(`Bearer ${METRICS_TOKEN}`);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('vigil_web_app_running{service="status-page"} 0');
    expect(h.starts).toBe(0);
    // Any other request starts it, and once it runs /metrics is the app's own.
    expect((await get(h.port, "/page")).text).toBe(`${h.app()!.pid} GET /page `);
    expect((await scrape()).text).toBe(`${h.app()!.pid} GET /metrics `);
    expect(h.starts).toBe(1);
  });
});
