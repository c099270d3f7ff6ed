// Issue 26's attack, replayed on real components in the local run's shape: sqld, the server and the probe on one
// host (server and probe in this process, as `pnpm start` runs them), the probe told the instance's own URLs.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createChannel, createWorkspace } from "@vigil/core";
import { until } from "@vigil/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalRun, useLocalRun } from "./local-run";

const SECRET = "https://hooks.slack.com/services/T0TENANT/B0OTHER/s3cr3t-0f-an0ther-tenant";

let run: LocalRun;
let sqldPort: number;
let redirector: Server;
let redirectorHits = 0;

useLocalRun((r) => {
  run = r;
  sqldPort = r.sqldPort;
});

beforeAll(async () => {
  // Another tenant's secret, stored where the attacker's SQL would read it.
  const other = await createWorkspace(run.database.db, { name: "Other tenant" }, "operator");
  await createChannel(run.database.db, other.id, { name: "ops", kind: "slack", config: { webhookUrl: SECRET } }, "operator");
  redirector = createServer((_req, res) => {
    redirectorHits++;
    res.writeHead(307, { location: `http://127.0.0.1:${sqldPort}/` }).end();
  });
  await new Promise<void>((r) => redirector.listen(0, "127.0.0.1", r));
});

afterAll(async () => {
  await new Promise((r) => redirector?.close(r));
});

const attack = (url: string) => ({
  name: "innocent health check",
  kind: "http",
  frequency: "1m",
  regions: ["iad"],
  retry: 0,
  request: {
    url,
    method: "POST",
    body: JSON.stringify({ statements: ["UPDATE workspace SET name = 'pwned'", "SELECT config FROM notification_channel"] }),
  },
  assertions: [{ kind: "jsonBody", path: "$[1].results.rows[0][0]", compare: "eq", target: "x" }],
});

/** Test now, once the probe has picked up its location (409 until then). */
async function testNow(body: unknown) {
  return until(
    "the probe to answer Test now",
    async () => {
      const res = await run.server.call("POST", "/v1/monitors/test", body);
      return res.status === 409 ? undefined : res;
    },
    30_000,
  );
}

const workspaceNames = () => run.workspaceNames();

/** The reply carries the refusal and nothing stored; the UPDATE never ran. */
// biome-ignore lint/suspicious/noExplicitAny: tests read responses ad hoc
async function expectRefused(reply: any, refusal: string) {
  expect(JSON.stringify(reply)).toContain(refusal);
  expect(JSON.stringify(reply)).not.toContain("s3cr3t");
  expect(await workspaceNames()).not.toContain("pwned");
}

describe("a member cannot reach the instance's database through checks or channels", () => {
  it("Test now of a POST with SQL to sqld is refused: no row changes, no stored data in the reply", async () => {
    const res = await testNow(attack(`http://127.0.0.1:${sqldPort}/`));
    expect(res.status).toBe(200);
    expect(res.body.result.status).toBe("error");
    expect(res.body.result.errorMessage).toBe(`target 127.0.0.1:${sqldPort} is this instance's database; refused`);
    await expectRefused(res.body, "is this instance's database; refused");
  });

  it("the same through a 307 from a loopback server: the first hop is asked, the database hop refused", async () => {
    const before = redirectorHits;
    const { port } = redirector.address() as AddressInfo;
    const res = await testNow(attack(`http://127.0.0.1:${port}/health`));
    expect(redirectorHits).toBe(before + 1);
    expect(res.body.result.status).toBe("error");
    await expectRefused(res.body, `target 127.0.0.1:${sqldPort} is this instance's database; refused`);
  });

  it("a webhook channel aimed at sqld's port fails its test with the refusal, not retryable", async () => {
    const created = await run.server.call("POST", "/v1/channels", {
      name: "db hook",
      kind: "webhook",
      config: { url: `http://localhost:${sqldPort}/` },
    });
    expect(created.status).toBe(201);
    const res = await run.server.call("POST", `/v1/channels/${created.body.id}/test`);
    expect(res.status).toBe(502);
    await expectRefused(res.body, `target localhost:${sqldPort} (127.0.0.1) is this instance's database; refused`);
  });
});
