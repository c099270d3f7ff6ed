// Issue 44's finding: under `pnpm start` every client was 127.0.0.1 (the launcher forwards connections to the
// web apps), so one client's failed tries locked out everyone. Replayed through the launcher's own forwarding
// (scripts/on-demand.ts) to an app started as the launcher starts one (the client preload, the per-run secret)
// that counts tries per client as the sign-in limit and the page-password lockout do: real Redis, real sockets.
import { type ChildProcess, spawn } from "node:child_process";
import { request } from "node:http";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { freePort, until } from "@vigil/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proxyHeader } from "../../packages/rate-limit/src/proxy-header";
import { OnDemand } from "../../scripts/on-demand";

const root = fileURLToPath(new URL("../..", import.meta.url));
const SECRET = `test-secret-${process.pid}-${Date.now()}`;
const RULE = `client-address-${process.pid}-${Date.now()}`;

// Three wrong tries per client, then 429: each answer names the client the app counted.
const APP = `
import { createServer } from "node:http";
import { createRateLimiter, RateLimitedError, stampedClient } from "${root}packages/rate-limit/src/index.ts";
import { createRedis } from "${root}packages/queue/src/index.ts";
const limiter = createRateLimiter(createRedis("redis://127.0.0.1:6379", "producer"), "vigil-test");
const rule = { name: ${JSON.stringify(RULE)}, limit: 3, windowMs: 600000, what: "wrong passwords" };
createServer(async (req, res) => {
  const client = stampedClient(new Headers(req.headers), []);
  try {
    await limiter.take(rule, client ?? "unknown");
    res.writeHead(403).end(client + " wrong password");
  } catch (err) {
    if (!(err instanceof RateLimitedError)) throw err;
    res.writeHead(429).end(client + " " + err.message);
  }
}).listen(Number(process.env.PORT), "127.0.0.1");
`;

let port: number;
let innerPort: number;
let app: ChildProcess | undefined;
let o: OnDemand;

beforeAll(async () => {
  [port, innerPort] = [await freePort(), await freePort()];
  o = new OnDemand({
    host: "127.0.0.1",
    port,
    innerPort,
    idleMs: 60_000,
    proxySecret: SECRET,
    // As the launcher runs it: a stopped app's first bytes are read for a scrape, then handed on.
    metrics: { service: "status-page", token: "t" },
    start: () => {
      // As the launcher runs a web app: the client preload first, the secret in its environment.
      app = spawn(process.execPath, ["--import", "tsx", "--import", `${root}scripts/client-preload.ts`, "--input-type=module", "-e", APP], {
        cwd: root,
        env: { ...process.env, PORT: String(innerPort), VIGIL_PROXY_SECRET: SECRET },
        stdio: "inherit",
      });
    },
    stop: () => app?.kill("SIGINT"),
    log: () => {},
  });
  await o.listen();
});
afterAll(() => {
  o.close();
  app?.kill("SIGKILL");
});

/** One request on its own connection from `from` (a loopback address of its own), with `headers`. */
function tryFrom(from: string, to = port, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { port: to, host: "127.0.0.1", localAddress: from, path: "/unlock", method: "POST", agent: false, headers },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d)).on("end", () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** What a raw connection to `to` receives after writing `bytes`, until the app hangs up. */
function raw(to: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ port: to, host: "127.0.0.1" });
    let got = "";
    s.on("data", (d) => (got += d));
    s.on("error", () => resolve(got));
    s.on("close", () => resolve(got));
    s.setTimeout(10_000, () => s.destroy());
    s.write(bytes);
  });
}

describe("under pnpm start, each client is counted by its own address", () => {
  it("a client locked out after wrong passwords does not lock out another client", async () => {
    for (let i = 0; i < 3; i++) expect(await tryFrom("127.0.0.2")).toEqual({ status: 403, text: "127.0.0.2 wrong password" });
    const locked = await tryFrom("127.0.0.2");
    expect(locked.status).toBe(429);
    expect(locked.text).toMatch(/^127\.0\.0\.2 too many wrong passwords; try again in \d+ s$/);
    // Another client on the same host, through the same launcher: its own count, not the launcher's 127.0.0.1.
    expect(await tryFrom("127.0.0.3")).toEqual({ status: 403, text: "127.0.0.3 wrong password" });
    expect((await tryFrom("127.0.0.2")).status).toBe(429);
  });

  it("a client cannot name itself another client with X-Vigil-Client or X-Forwarded-For", async () => {
    const answer = await tryFrom("127.0.0.4", port, { "x-vigil-client": "127.0.0.3", "x-forwarded-for": "127.0.0.3" });
    expect(answer).toEqual({ status: 403, text: "127.0.0.4 wrong password" });
  });

  it("a connection to the app's own port without the launcher's secret is closed unanswered", async () => {
    await until("the app up", () => o.running && app !== undefined);
    await tryFrom("127.0.0.5");
    const request = Buffer.from("POST /unlock HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    // Plain HTTP, as any local client would send it.
    expect(await raw(innerPort, request)).toBe("");
    // A PROXY header naming another client, with a guessed secret.
    const forged = proxyHeader({ address: "127.0.0.9", port: 1 }, { address: "127.0.0.1", port: innerPort }, "guessed");
    expect(await raw(innerPort, Buffer.concat([forged, request]))).toBe("");
    // The same header with the launcher's secret is believed: the secret, not the address, is what proves it.
    const real = proxyHeader({ address: "127.0.0.9", port: 1 }, { address: "127.0.0.1", port: innerPort }, SECRET);
    expect(await raw(innerPort, Buffer.concat([real, request]))).toMatch(/^HTTP\/1\.1 403 [\s\S]*127\.0\.0\.9 wrong password/);
  });
});
