// Two of each stateless service on one sqld and Redis, as compose's `deploy.replicas: 2` runs them: each
// probe sends to its own server, both workflows take jobs, and killing one of each mid-outage loses and
// doubles no alert.
import { freePort } from "@vigil/db-schema/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookChannel, Service, type Stack, startStack, Targets, until, WebhookReceiver } from "./harness";

const MONITORS = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("two servers and two workflows", () => {
  let stack: Stack;
  const targets = new Targets();
  const hook = new WebhookReceiver();
  const extra: Service[] = [];
  let server2: Service;
  let workflows2: Service;

  beforeAll(async () => {
    await Promise.all([targets.start(), hook.start()]);
    stack = await startStack(["iad", "fra"]);
    server2 = new Service({
      name: "server-2",
      entry: stack.server.options.entry,
      env: { ...stack.server.env, PORT: String(await freePort()) },
    });
    workflows2 = new Service({
      name: "workflows-2",
      entry: stack.workflows.options.entry,
      env: { ...stack.workflows.env, PORT: String(await freePort()) },
    });
    // The fra probe reports to the second server, as a load balancer would send it there.
    const fra = stack.probes[1]!;
    await fra.kill("SIGKILL");
    const fra2 = new Service({
      name: "probe-fra-2",
      entry: fra.options.entry,
      env: { ...fra.env, SERVICE_INGEST_URL: `http://127.0.0.1:${server2.env.PORT}` },
    });
    extra.push(server2, workflows2, fra2);
    await Promise.all(extra.map((s) => s.start()));
  }, 300_000);

  afterAll(async () => {
    await Promise.all(extra.map((s) => s.kill()));
    await stack?.close();
    await Promise.all([targets.stop(), hook.stop()]);
  });

  it("with one server and one workflows SIGKILLed during an outage, every monitor alerts error and recovered exactly once", {
    timeout: 400_000,
  }, async () => {
    await hookChannel(stack, hook);
    const ids: number[] = [];
    for (let i = 0; i < MONITORS; i++) {
      const made = await stack.api("POST", "/v1/monitors", {
        kind: "http",
        name: `twice-${i}`,
        frequency: "30s",
        regions: ["iad", "fra"],
        retry: 1,
        timeout: 2000,
        channels: ["hook"],
        request: { url: targets.url(`/twice/${i}`) },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      ids.push(made.body.id);
    }
    const results = async () =>
      Number((await stack.db.$client.execute("select count(distinct monitor_id || '-' || location_id) as n from check_result")).rows[0]!.n);
    await until("both locations report every monitor", async () => (await results()) === MONITORS * 2, 120_000);

    for (let i = 0; i < MONITORS; i++) targets.modes.set(`/twice/${i}`, "down");
    await sleep(5_000);
    await Promise.all([stack.server.kill("SIGKILL"), stack.workflows.kill("SIGKILL")]);
    await sleep(5_000);
    await Promise.all([stack.server.start(), stack.workflows.start()]);
    await until("every monitor's error", () => ids.every((id) => hook.of(id).includes("error")), 180_000);
    // Recovery while the other pair is down for a moment: the survivors carry it.
    for (let i = 0; i < MONITORS; i++) targets.modes.set(`/twice/${i}`, "up");
    await Promise.all([server2.kill("SIGKILL"), workflows2.kill("SIGKILL")]);
    await sleep(5_000);
    await Promise.all([server2.start(), workflows2.start()]);
    await until("every monitor's recovery", () => ids.every((id) => hook.of(id).includes("recovered")), 180_000);
    await sleep(10_000);

    for (const id of ids) {
      const sent = hook.deliveries.filter((d) => d.monitorId === id).map((d) => `${d.status}@${d.cronTimestamp}`);
      expect(hook.of(id), `monitor ${id}: delivered ${sent.join(", ")}`).toEqual(["error", "recovered"]);
    }
  });
});
