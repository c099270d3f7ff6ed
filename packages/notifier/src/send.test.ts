import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutgoingHttp } from "./channel";
import { deliver, send } from "./send";
import { type CaptureServer, refusedUrl, startCaptureServer } from "./testing";

let server: CaptureServer;
beforeAll(async () => {
  // The path picks the reply: /status/<code>, /long (a 2 kB error page), /hang (never answers).
  server = await startCaptureServer((req) => {
    if (req.path === "/hang") return "hang";
    if (req.path === "/long") return { status: 502, body: `<html>${"x".repeat(2000)}</html>` };
    if (req.path === "/echo") return { status: 400, body: "invalid callback https://bot:pw-77@cb.example/x?token=tk-88" };
    const status = Number(req.path.split("/")[2]);
    return { status, body: status < 300 ? "ok" : `reply ${status}` };
  });
});
afterAll(() => server.close());

const post = (url: string): OutgoingHttp => ({
  transport: "http",
  method: "POST",
  url,
  headers: { "content-type": "text/plain" },
  body: "hi",
});

describe("send", () => {
  it("a 2xx reply is a delivery", async () => {
    await expect(send(post(`${server.url}/status/200`))).resolves.toEqual({ ok: true, status: 200 });
    await expect(send(post(`${server.url}/status/204`))).resolves.toEqual({ ok: true, status: 204 });
  });

  it("a 500 reply is retried later, with the reply's text in the error", async () => {
    await expect(send(post(`${server.url}/status/500`))).resolves.toEqual({
      ok: false,
      retryable: true,
      status: 500,
      error: "HTTP 500: reply 500",
    });
  });

  it("a 429 rate limit is retried later", async () => {
    await expect(send(post(`${server.url}/status/429`))).resolves.toEqual({
      ok: false,
      retryable: true,
      status: 429,
      error: "HTTP 429: reply 429",
    });
  });

  it("a 400 or 404 reply is permanent: the request itself is wrong", async () => {
    await expect(send(post(`${server.url}/status/400`))).resolves.toEqual({
      ok: false,
      retryable: false,
      status: 400,
      error: "HTTP 400: reply 400",
    });
    await expect(send(post(`${server.url}/status/404`))).resolves.toEqual({
      ok: false,
      retryable: false,
      status: 404,
      error: "HTTP 404: reply 404",
    });
  });

  it("a reply that echoes a URL's password or token keeps neither in the delivery log", async () => {
    const res = await send(post(`${server.url}/echo`));
    expect(res).toMatchObject({ ok: false, error: "HTTP 400: invalid callback https://***@cb.example/x?token=***" });
  });

  it("a long error page is cut to a 500-character excerpt", async () => {
    const result = await send(post(`${server.url}/long`));
    expect(result).toMatchObject({ ok: false, retryable: true, status: 502 });
    const excerpt = result.ok ? "" : result.error.slice("HTTP 502: ".length);
    expect(excerpt).toHaveLength(500);
    expect(excerpt).toBe(`<html>${"x".repeat(493)}…`);
  });

  it("a refused connection is retried later, and the error does not echo the URL (it can be the credential)", async () => {
    const url = `${await refusedUrl()}/services/T0/B0/very-secret`;
    const result = await send(post(url));
    expect(result).toMatchObject({ ok: false, retryable: true });
    expect(result).not.toHaveProperty("status");
    expect(result.ok ? "" : result.error).toContain("ECONNREFUSED");
    expect(JSON.stringify(result)).not.toContain("very-secret");
  });

  it("a server that never answers is given up on after the timeout and retried later", async () => {
    const started = Date.now();
    await expect(send(post(`${server.url}/hang`), { timeoutMs: 200 })).resolves.toEqual({
      ok: false,
      retryable: true,
      error: "no response within 200 ms",
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("a request the HTTP client cannot encode is permanent", async () => {
    const req = { ...post(`${server.url}/status/200`), headers: { "x-name": "🚀" } };
    await expect(send(req)).resolves.toEqual({
      ok: false,
      retryable: false,
      error: "request refused by the HTTP client: invalid x-name header",
    });
  });
});

describe("deliver", () => {
  it("sends requests in order and stops at the first failure, which becomes the outcome", async () => {
    const before = server.requests.length;
    await expect(deliver([post(`${server.url}/status/400`), post(`${server.url}/status/200`)])).resolves.toMatchObject({
      ok: false,
      retryable: false,
      status: 400,
    });
    expect(server.requests.slice(before).map((r) => r.path)).toEqual(["/status/400"]);
  });

  it("when every request succeeds the outcome is the last reply", async () => {
    const before = server.requests.length;
    await expect(deliver([post(`${server.url}/status/202`), post(`${server.url}/status/200`)])).resolves.toEqual({ ok: true, status: 200 });
    expect(server.requests.slice(before).map((r) => r.path)).toEqual(["/status/202", "/status/200"]);
  });
});
