// Issue 26's finding "cross-origin redirect hops keep secret headers" (only Authorization and Cookie were
// dropped): a monitored site that redirects to another origin handed that origin the monitor's stored API
// keys and tokens. Replayed with a saved monitor run on the real probe, its secrets stored encrypted.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalRun, startLocalRun } from "./local-run";

let run: LocalRun;
let monitored: Server;
let elsewhere: Server;
const seen: { monitored?: IncomingHttpHeaders; elsewhere?: IncomingHttpHeaders } = {};

const listen = async (handler: Parameters<typeof createServer>[1]) => {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return server;
};
const portOf = (s: Server) => (s.address() as AddressInfo).port;

beforeAll(async () => {
  run = await startLocalRun();
  elsewhere = await listen((req, res) => {
    seen.elsewhere = req.headers;
    res.end("ok");
  });
  monitored = await listen((req, res) => {
    seen.monitored = req.headers;
    res.writeHead(307, { location: `http://127.0.0.1:${portOf(elsewhere)}/landed` }).end();
  });
}, 60_000);

afterAll(async () => {
  await new Promise((r) => monitored?.close(r));
  await new Promise((r) => elsewhere?.close(r));
  await run?.close();
});

describe("a redirect to another origin never carries a monitor's secrets", () => {
  it("a saved monitor's API key, token and user-marked header reach its own origin only; plain headers follow", async () => {
    const created = await run.server.call("POST", "/v1/monitors", {
      name: "API behind a redirect",
      kind: "http",
      frequency: "1m",
      regions: ["iad"],
      retry: 0,
      request: {
        url: `http://127.0.0.1:${portOf(monitored)}/health`,
        headers: {
          Authorization: "Bearer auth-s3cret",
          "X-Api-Key": "key-s3cret",
          "X-Access-Token": "token-s3cret",
          "X-Tenant": "tenant-s3cret",
          "X-Plain": "kept",
        },
        secretHeaders: ["X-Tenant"],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const res = await run.server.call("POST", `/v1/monitors/${created.body.id}/trigger`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.status).toBe("success");

    // The monitored origin was given the stored values: the probe had the real secrets to lose.
    expect(seen.monitored).toMatchObject({ "x-api-key": "key-s3cret", "x-tenant": "tenant-s3cret", "x-plain": "kept" });
    expect(seen.elsewhere?.["x-plain"]).toBe("kept");
    expect(JSON.stringify(seen.elsewhere)).not.toMatch(/s3cret/);
  });
});
