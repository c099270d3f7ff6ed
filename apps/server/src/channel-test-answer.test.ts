// A channel test shows what the receiver objected to, not a page of its answer nor anything secret it echoes.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing";

const HEADER_SECRET = "hdr-value-9f8e7d6c5b4a3210";
const SIGNING_SECRET = "signing-secret-0123456789abcdef";
const PATH_SECRET = "path-part-a1b2c3d4e5f6";

let s: TestServer;
let answer = "";
const receiver = createServer((req, res) => {
  req.resume();
  req.on("end", () => res.writeHead(401, { "content-type": "text/plain" }).end(answer));
});

beforeAll(async () => {
  s = await startTestServer();
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
}, 120_000);
afterAll(async () => {
  receiver.close();
  await s?.close();
});

describe("a channel test's error", () => {
  it("shows the receiver's status and at most 200 characters of its answer, with tokens and the channel's secrets removed", async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/${PATH_SECRET}`;
    const c = await s.call("POST", "/v1/channels", {
      name: "echoing",
      kind: "webhook",
      config: { url, headers: { "x-api-header": HEADER_SECRET }, secret: SIGNING_SECRET },
    });
    expect(c.status).toBe(201);
    answer = [
      `denied: Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.c2VjcmV0.sig got ${HEADER_SECRET}`,
      `for /hooks/${PATH_SECRET}?token=tok_live_777 api_key=ak_888888 "password":"hunter2hunter2" sig ${SIGNING_SECRET}`,
      "x".repeat(1000),
    ].join(" ");
    const r = await s.call("POST", `/v1/channels/${c.body.id}/test`);
    expect([r.status, r.body.error.status]).toEqual([502, 401]);
    const message: string = r.body.error.message;
    expect(message.startsWith("HTTP 401: denied: Authorization: Bearer ***")).toBe(true);
    expect(message.length).toBe("HTTP 401: ".length + 200);
    expect(message.endsWith("…")).toBe(true);
    for (const secret of [
      HEADER_SECRET,
      SIGNING_SECRET,
      PATH_SECRET,
      "eyJhbGciOiJIUzI1NiJ9",
      "tok_live_777",
      "ak_888888",
      "hunter2hunter2",
    ])
      expect(message, secret).not.toContain(secret);
    expect(message).toContain("token=***");
    expect(message).toContain('"password":"***');
  });
});
