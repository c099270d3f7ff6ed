import type { IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { EgressPolicy } from "@vigil/egress";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { runCheck, runWebSocketCheck } from "../../index";
import { WebSocketCheck } from "./index";

const ws = (input: Omit<Partial<WebSocketCheck>, "kind" | "assertions"> & { url: string; assertions?: unknown[] }) =>
  WebSocketCheck.parse({ kind: "websocket", retry: 0, ...input });

const open: WebSocketServer[] = [];
afterEach(async () => {
  await Promise.all(
    open.splice(0).map(
      (s) =>
        new Promise<void>((r) => {
          for (const c of s.clients) c.terminate();
          s.close(() => r());
        }),
    ),
  );
});

/** A real WebSocket server on loopback: greets, echoes, remembers the handshake's headers and counts connections. */
async function server(opts: { greet?: string; refuse?: boolean; host?: string } = {}) {
  let headers: IncomingHttpHeaders | undefined;
  let connections = 0;
  const wss = new WebSocketServer({
    host: opts.host ?? "127.0.0.1",
    port: 0,
    verifyClient: (info, done) => {
      headers = info.req.headers;
      done(!opts.refuse, 403);
    },
  });
  wss.on("connection", (socket) => {
    connections++;
    if (opts.greet) socket.send(opts.greet);
    socket.on("message", (data) => socket.send(`echo:${data}`));
  });
  await new Promise<void>((r) => wss.once("listening", () => r()));
  open.push(wss);
  const { port } = wss.address() as AddressInfo;
  const host = opts.host ?? "127.0.0.1";
  return {
    url: `ws://${host.includes(":") ? `[${host}]` : host}:${port}/live`,
    port,
    headers: () => headers,
    connections: () => connections,
  };
}

describe("WebSocket checks", () => {
  it("a handshake that completes is up, its time the latency, the headers sent", async () => {
    const s = await server();
    const result = await runWebSocketCheck(ws({ url: s.url, headers: { "X-Team": "ops" } }));
    expect(result.status).toBe("success");
    expect(result.latencyMs).toBeGreaterThan(0);
    expect(result.timings?.connect).toBe(result.latencyMs);
    expect(s.headers()?.["x-team"]).toBe("ops");
  });

  it("the message is sent and assertions read the first message back", async () => {
    const s = await server();
    const ok = await runWebSocketCheck(
      ws({ url: s.url, message: "ping", assertions: [{ kind: "textBody", compare: "eq", target: "echo:ping" }] }),
    );
    expect(ok.status).toBe("success");
    const bad = await runWebSocketCheck(
      ws({ url: s.url, message: "ping", assertions: [{ kind: "textBody", compare: "eq", target: "pong" }] }),
    );
    expect(bad.status).toBe("error");
    expect(bad.errorMessage).toBe('textBody: expected eq "pong", got "echo:ping"');
  });

  it("with no message, assertions read what the server says first (JSON paths too)", async () => {
    const s = await server({ greet: '{"type":"hello","version":3}' });
    const result = await runWebSocketCheck(
      ws({ url: s.url, assertions: [{ kind: "jsonBody", path: "$.version", compare: "gte", target: 3 }] }),
    );
    expect(result.status).toBe("success");
  });

  it("a server that answers the upgrade with 403 is an error naming the status", async () => {
    const s = await server({ refuse: true });
    const result = await runWebSocketCheck(ws({ url: s.url }));
    expect(result.errorMessage).toBe(`websocket: handshake refused with HTTP 403 by 127.0.0.1:${s.port}`);
  });

  it("a server that never sends a message is an error once the timeout passes", async () => {
    const s = await server();
    const result = await runWebSocketCheck(ws({ url: s.url, timeoutMs: 400, assertions: [{ kind: "textBody", compare: "not_empty" }] }));
    expect(result.errorMessage).toBe(`websocket: waiting for the first message from 127.0.0.1:${s.port} timed out after 400 ms`);
  });

  it("works over IPv6 ::1", async () => {
    const s = await server({ host: "::1" });
    expect((await runWebSocketCheck(ws({ url: s.url }))).status).toBe("success");
  });

  it("a URL pointing at the instance's own endpoint is refused and the server gets no connection", async () => {
    const s = await server();
    const egress = await EgressPolicy.create({ instance: [{ name: "analytics", url: `http://127.0.0.1:${s.port}` }] });
    const result = await runCheck(ws({ url: s.url.replace("127.0.0.1", "localhost") }), { egress });
    expect(result.errorMessage).toMatch(/is this instance's analytics; refused$/);
    expect(s.connections()).toBe(0);
  });
});
