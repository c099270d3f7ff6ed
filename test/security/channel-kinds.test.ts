// The attacker's review of issue 44 aimed every channel kind whose address a member types at the instance's
// database and Redis ("Test" sends a message at once, so a channel is a way to POST to any port). Replayed on
// the real server: each channel test is refused with the reason, not sent, and not retried.
import { createApiKey, createWorkspace, setLimits } from "@vigil/core";
import { describe, expect, it } from "vitest";
import { type LocalRun, REDIS_PORT, useLocalRun } from "./local-run";

let run: LocalRun;
useLocalRun((r) => {
  run = r;
});

type Target = "database" | "redis";

/** Each kind's config aimed at `url`, as a member would type it. */
const KINDS: [string, (url: string) => Record<string, unknown>][] = [
  ["webhook", (url) => ({ url })],
  ["slack", (webhookUrl) => ({ webhookUrl })],
  ["discord", (webhookUrl) => ({ webhookUrl })],
  ["google-chat", (webhookUrl) => ({ webhookUrl })],
  ["ms-teams", (webhookUrl) => ({ webhookUrl })],
  ["grafana-oncall", (webhookUrl) => ({ webhookUrl })],
  ["ntfy", (server) => ({ server, topic: "alerts" })],
];

/** A workspace of its own per target: channel tests are limited per workspace. */
const keys = new Map<Target, Promise<string>>();
function keyFor(target: Target): Promise<string> {
  if (!keys.has(target))
    keys.set(
      target,
      (async () => {
        const ws = await createWorkspace(run.database.db, { name: `attacker ${target}` }, "operator");
        await setLimits(run.database.db, ws.id, "unlimited", "operator");
        return (await createApiKey(run.database.db, ws.id, { name: "attacker" }, "operator")).key;
      })(),
    );
  return keys.get(target)!;
}

describe("no channel kind delivers to the instance's database or Redis", () => {
  for (const target of ["database", "redis"] as const)
    it.each(KINDS)(`a %s channel aimed at the ${target} fails its test with the refusal`, async (kind, config) => {
      const key = await keyFor(target);
      const port = target === "database" ? run.sqldPort : REDIS_PORT;
      const created = await run.server.call(
        "POST",
        "/v1/channels",
        { name: `${kind} ${target}`, kind, config: config(`http://localhost:${port}/`) },
        key,
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const res = await run.server.call("POST", `/v1/channels/${created.body.id}/test`, undefined, key);
      expect(res.status).toBe(502);
      expect(JSON.stringify(res.body)).toContain(`is this instance's ${target}; refused`);
    });
});
