import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { runCheck, runHttpCheck } from "../../index";
import { listenHttp } from "../../testing/servers";
import { HttpCheck } from "./index";

// The spec's literal monitor: kind http, POST a ping, expect the exact healthy reply.
const PING = '{"jsonrpc":"2.0","id":"1","method":"ping"}';
const HEALTHY = '{"jsonrpc":"2.0","id":"1","result":{}}';
const specMonitor = (url: string) =>
  HttpCheck.parse({
    kind: "http",
    url,
    method: "POST",
    body: PING,
    headers: { "Content-Type": "application/json" },
    retry: 0,
    assertions: [
      { kind: "statusCode", compare: "eq", target: 200 },
      { kind: "textBody", compare: "eq", target: HEALTHY },
    ],
  });
const bareMonitor = (url: string) => HttpCheck.parse({ kind: "http", url, method: "POST", body: PING, retry: 0 });

type Reply = (req: IncomingMessage, res: ServerResponse, request: { id: unknown }) => void;
const asJson =
  (message: unknown): Reply =>
  (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(typeof message === "string" ? message : JSON.stringify(message));
  };
const asSse =
  (...messages: unknown[]): Reply =>
  (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write(": keep-alive comment\n\n");
    for (const m of messages) res.write(`event: message\ndata: ${typeof m === "string" ? m : JSON.stringify(m)}\n\n`);
    res.end();
  };

const open: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
const seen: { method?: string; accept?: string; contentType?: string; body?: string }[] = [];
async function jsonRpcServer(reply: Reply) {
  const s = await listenHttp((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method, accept: req.headers.accept, contentType: req.headers["content-type"], body });
      reply(req, res, JSON.parse(body));
    });
  });
  open.push(s);
  return s;
}

describe("JSON-RPC 2.0 ping checks", () => {
  it("the spec's literal textBody monitor passes against a JSON reply", async () => {
    const s = await jsonRpcServer(asJson(HEALTHY));
    const result = await runHttpCheck(specMonitor(s.origin));
    expect(result.errorMessage).toBeUndefined();
    expect(result.status).toBe("success");
  });

  it("the spec's literal textBody monitor passes against an event-stream reply", async () => {
    const s = await jsonRpcServer(asSse(HEALTHY));
    const result = await runHttpCheck(specMonitor(s.origin));
    expect(result.errorMessage).toBeUndefined();
    expect(result.status).toBe("success");
  });

  it("key order and spacing in the reply don't matter for textBody eq", async () => {
    const s = await jsonRpcServer(asJson('{ "result": {}, "id": "1", "jsonrpc": "2.0" }\n'));
    expect((await runHttpCheck(specMonitor(s.origin))).status).toBe("success");
  });

  it("the ping is a POST with a JSON content type that accepts JSON or an event stream", async () => {
    seen.length = 0;
    const s = await jsonRpcServer(asJson(HEALTHY));
    // method left at its default: the spec says JSON-RPC checks POST
    await runHttpCheck(HttpCheck.parse({ kind: "http", url: s.origin, body: PING, retry: 0 }));
    expect(seen).toEqual([{ method: "POST", accept: "application/json, text/event-stream", contentType: "application/json", body: PING }]);
  });

  it("in an event stream, the message with our id is the one judged", async () => {
    const s = await jsonRpcServer(
      asSse({ jsonrpc: "2.0", method: "notifications/progress", params: {} }, { jsonrpc: "2.0", id: "other", result: { x: 1 } }, HEALTHY),
    );
    expect((await runHttpCheck(specMonitor(s.origin))).status).toBe("success");
  });

  it("an event stream kept open after the reply is judged as soon as the reply arrives", async () => {
    const s = await jsonRpcServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${HEALTHY}\r\n`);
      setTimeout(() => res.write("\r\n"), 20); // the blank line ending the event comes in a later chunk
    });
    const started = performance.now();
    const result = await runHttpCheck({ ...specMonitor(s.origin), timeoutMs: 2000 });
    expect(result.status).toBe("success");
    expect(performance.now() - started).toBeLessThan(1000);
  });

  for (const [style, send] of [
    ["JSON", asJson],
    ["event-stream", asSse],
  ] as const) {
    it(`a JSON-RPC error member fails the check (${style})`, async () => {
      const s = await jsonRpcServer(send({ jsonrpc: "2.0", id: "1", error: { code: -32601, message: "Method not found" } }));
      const spec = await runHttpCheck(specMonitor(s.origin));
      expect(spec.status).toBe("error");
      expect(spec.errorMessage).toContain("jsonrpc: error -32601 Method not found");
      const bare = await runHttpCheck(bareMonitor(s.origin));
      expect(bare).toMatchObject({ status: "error", errorMessage: "jsonrpc: error -32601 Method not found" });
    });

    it(`a reply with the wrong id fails the check (${style})`, async () => {
      const s = await jsonRpcServer(send({ jsonrpc: "2.0", id: "2", result: {} }));
      const spec = await runHttpCheck(specMonitor(s.origin));
      expect(spec.status).toBe("error");
      expect(spec.errorMessage).toContain('textBody: expected eq "{\\"jsonrpc\\":\\"2.0\\",\\"id\\":\\"1\\",\\"result\\":{}}"');
      const bare = await runHttpCheck(bareMonitor(s.origin));
      expect(bare).toMatchObject({ status: "error", errorMessage: 'jsonrpc: expected a reply with id "1", got id "2"' });
    });

    it(`a non-empty result fails the spec's textBody assertion (${style})`, async () => {
      const s = await jsonRpcServer(send({ jsonrpc: "2.0", id: "1", result: { status: "busy" } }));
      const spec = await runHttpCheck(specMonitor(s.origin));
      expect(spec.status).toBe("error");
      expect(spec.errorMessage).toMatch(/^textBody: expected eq .*, got .*busy/);
      // Without an assertion the reply is still a valid JSON-RPC result.
      expect((await runHttpCheck(bareMonitor(s.origin))).status).toBe("success");
    });

    it(`a JSON-RPC ping without assertions succeeds on a matching result (${style})`, async () => {
      const s = await jsonRpcServer(send({ jsonrpc: "2.0", id: "1", result: {} }));
      const result = await runHttpCheck(bareMonitor(s.origin));
      expect(result.status).toBe("success");
      expect(result.assertions?.map((a) => a.kind)).toEqual(["statusCode", "jsonrpc"]);
    });
  }

  it("a reply without result or error fails the check", async () => {
    const s = await jsonRpcServer(asJson({ jsonrpc: "2.0", id: "1" }));
    expect((await runHttpCheck(bareMonitor(s.origin))).errorMessage).toBe("jsonrpc: reply has neither result nor error");
  });

  it("a reply that is not JSON fails the check with a clear message", async () => {
    const s = await jsonRpcServer((_req, res) => res.end("<html>gateway</html>"));
    const result = await runHttpCheck(bareMonitor(s.origin));
    expect(result.errorMessage).toMatch(/^jsonrpc: reply is not JSON \(.+\), starts with "<html>gateway<\/html>"$/);
  });

  it("an event stream with no JSON message fails the check", async () => {
    const s = await jsonRpcServer(asSse("not json"));
    expect((await runHttpCheck(bareMonitor(s.origin))).errorMessage).toBe("jsonrpc: the event stream held no JSON message");
  });

  it("jsonBody assertions on a JSON-RPC check read the reply message, not the SSE framing", async () => {
    const s = await jsonRpcServer(asSse({ jsonrpc: "2.0", id: "1", result: { version: "1.2" } }));
    const result = await runCheck(
      HttpCheck.parse({
        kind: "http",
        url: s.origin,
        method: "POST",
        body: PING,
        retry: 0,
        assertions: [{ kind: "jsonBody", path: "$.result.version", compare: "eq", target: "1.2" }],
      }),
    );
    expect(result.errorMessage).toBeUndefined();
  });
});
