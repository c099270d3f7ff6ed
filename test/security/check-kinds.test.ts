// The attacker's review of issue 44 aimed every check kind that speaks a protocol at the instance's database and
// Redis (a member reading other tenants' queued jobs from Redis, or writing SQL to sqld). Replayed through Test
// now on the local run's shape: each is refused before a byte is sent; a connect-only TCP check stays allowed.
import { describe, expect, it } from "vitest";
import { type LocalRun, REDIS_PORT, useLocalRun } from "./local-run";

let run: LocalRun;
useLocalRun((r) => {
  run = r;
});

type Target = "database" | "redis";
const port = (target: Target) => (target === "database" ? run.sqldPort : REDIS_PORT);

/** Each kind's draft aimed at `host:port`, as a member would post it. */
const KINDS: [string, (host: string, port: number) => Record<string, unknown>][] = [
  ["redis (KEYS *)", (h, p) => ({ kind: "redis", request: { connection: `redis://${h}:${p}`, query: "KEYS *" } })],
  ["postgres", (h, p) => ({ kind: "postgres", request: { connection: `postgres://u:pw@${h}:${p}/x`, query: "SELECT 1" } })],
  ["mysql", (h, p) => ({ kind: "mysql", request: { connection: `mysql://u:pw@${h}:${p}/x`, query: "SELECT 1" } })],
  ["websocket", (h, p) => ({ kind: "websocket", request: { url: `ws://${h}:${p}/`, message: "UPDATE workspace SET name = 'pwned'" } })],
  ["grpc", (h, p) => ({ kind: "grpc", request: { host: h, port: p } })],
  ["tls", (h, p) => ({ kind: "tls", request: { host: h, port: p } })],
  ["dns", (h, p) => ({ kind: "dns", request: { name: "example.com", resolver: `${h}:${p}` } })],
  ["domain (RDAP)", (h, p) => ({ kind: "domain", request: { domain: "example.com", rdapUrl: `http://${h}:${p}/` } })],
];

describe("no check kind that sends bytes reaches the instance's database or Redis", () => {
  for (const target of ["database", "redis"] as const)
    it.each(KINDS)(`a %s check aimed at the ${target} is refused before connecting`, async (_name, draft) => {
      const result = await run.testNow(draft(target === "redis" ? "localhost" : "127.0.0.1", port(target)));
      expect(result.status).toBe("error");
      expect(result.errorMessage).toMatch(new RegExp(`is this instance's ${target}; refused$`));
    });

  it("a connect-only TCP check of the database and Redis stays allowed: it sends nothing", async () => {
    for (const target of ["database", "redis"] as const)
      expect((await run.testNow({ kind: "tcp", request: { host: "127.0.0.1", port: port(target) } })).status, target).toBe("success");
  });
});
