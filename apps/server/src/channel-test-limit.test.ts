// "Test" on a channel sends through the operator's own mail sender, SMS account and bots: an API key
// must not turn it into a spam cannon. The count lives in the server's Redis, per workspace.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createApiKey, createWorkspace, RATE_LIMITS, setLimits } from "@vigil/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing";

let s: TestServer;
let hits = 0;
const hook = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    hits++;
    res.end("ok");
  });
});

beforeAll(async () => {
  s = await startTestServer();
  await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
});
afterAll(async () => {
  hook.close();
  await s?.close();
});

const hookUrl = () => `http://127.0.0.1:${(hook.address() as AddressInfo).port}/t`;

describe("channel tests", () => {
  it("channel tests beyond the limit are refused with 429 and send nothing", async () => {
    const limit = RATE_LIMITS.channelTest.limit;
    const c = await s.call("POST", "/v1/channels", { name: "spam", kind: "webhook", config: { url: hookUrl() } });
    for (let i = 0; i < limit; i++) expect((await s.call("POST", `/v1/channels/${c.body.id}/test`)).status).toBe(200);
    expect(hits).toBe(limit);

    // Another channel of the same workspace shares the count.
    const other = await s.call("POST", "/v1/channels", { name: "spam-2", kind: "webhook", config: { url: hookUrl() } });
    for (const id of [c.body.id, other.body.id]) {
      const r = await s.call("POST", `/v1/channels/${id}/test`);
      expect(r.status).toBe(429);
      expect(r.body.error.code).toBe("rate_limited");
      expect(r.body.error.message).toMatch(/^too many test notifications for this workspace; try again in \d+ s$/);
      const wait = Number(r.headers.get("retry-after"));
      expect(wait).toBeGreaterThan(500);
      expect(wait).toBeLessThanOrEqual(600);
    }
    expect(hits).toBe(limit);

    // Another workspace is not held up by it.
    const ws = await createWorkspace(s.database.db, { name: "Neighbour" }, "operator");
    await setLimits(s.database.db, ws.id, "unlimited", "operator");
    const { key } = await createApiKey(s.database.db, ws.id, { name: "n" }, "operator");
    const mine = await s.call("POST", "/v1/channels", { name: "mine", kind: "webhook", config: { url: hookUrl() } }, key);
    expect((await s.call("POST", `/v1/channels/${mine.body.id}/test`, undefined, key)).status).toBe(200);
    expect(hits).toBe(limit + 1);
  });
});
