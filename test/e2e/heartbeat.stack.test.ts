// Heartbeat monitors on real processes (sqld, Redis, server, workflows): jobs ping with real curl or the
// vigil CLI, alerts arrive at a loopback webhook. One stack for every case; the slow ones run side by side.
import { spawn } from "node:child_process";
import { createMaintenance } from "@vigil/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookChannel, runCli, type Stack, startStack, until, WebhookReceiver } from "./harness";

let stack: Stack;
const hook = new WebhookReceiver();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A heartbeat made through the API, with its ping URL. */
async function heartbeat(key: string, request: Record<string, unknown>) {
  const made = await stack.api("POST", "/v1/monitors", { kind: "heartbeat", key, name: key, channels: ["hook"], request });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const details = await stack.api("GET", `/v1/heartbeats/${made.body.id}`);
  return { id: made.body.id as number, url: details.body.pingUrl as string };
}

/** One run of curl as a cron job would call it: retried with doubling waits (1, 2, 4... s) while the server is away. */
function curl(url: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(
      "curl",
      ["-fsS", "-m", "5", "--retry", "8", "--retry-max-time", "120", "--retry-connrefused", "-o", "/dev/null", url],
      { stdio: "ignore" },
    );
    child.on("close", resolve);
  });
}

/** A job that pings every `everyMs` until stopped. */
function job(url: string, everyMs = 2000) {
  const runs: Promise<number | null>[] = [];
  const beat = () => runs.push(curl(url));
  beat();
  const timer = setInterval(beat, everyMs);
  return {
    stop: async () => {
      clearInterval(timer);
      return Promise.all(runs);
    },
  };
}

const alerts = (id: number) => hook.of(id);

/** Waits like `until`; a timeout also says what the heartbeat and the receivers' liveness held, and the services' logs. */
async function untilHeartbeat(what: string, id: number, check: () => boolean, ms: number) {
  try {
    await until(what, async () => check(), ms, 200);
  } catch (err) {
    const now = Date.now();
    const rows = async (q: string) => (await stack.db.$client.execute(q)).rows.map((r) => JSON.stringify(r));
    const state = await rows(
      `select h.last_ping_at, h.started_at, h.deadline_at, h.evaluated_ping_id, h.rearmed_at, m.status from heartbeat h join monitor m on m.id = h.monitor_id where h.monitor_id = ${id}`,
    );
    const pings = await rows(`select id, kind, at from heartbeat_ping where monitor_id = ${id} order by id`);
    const receivers = await rows("select * from ping_receiver");
    throw new Error(
      `${(err as Error).message}\nnow ${now}\nheartbeat ${state}\npings ${pings}\nreceivers ${receivers}\n` +
        `workflows log:\n${stack.workflows.log.slice(-3000)}\nserver log:\n${stack.server.log.slice(-3000)}`,
    );
  }
}
const errorOf = (id: number) => hook.deliveries.find((d) => d.monitorId === id && d.status === "error");

beforeAll(async () => {
  await hook.start();
  // No safety tick within the run: every prompt decision below comes from a pass asked for at the deadline or
  // by the server when it stored a ping.
  stack = await startStack([], { workflows: { HEARTBEAT_TICK_MS: "500", HEARTBEAT_SAFETY_TICK_MS: "3600000" } });
  await hookChannel(stack, hook);
}, 300_000);

afterAll(async () => {
  await stack?.close();
  await hook.stop();
});

describe("heartbeat monitors", () => {
  it("a job pinging every 2 s stays up with no alert; reported failures, an unfinished run and a maintenance window alert as they should", {
    timeout: 240_000,
  }, async () => {
    const steady = await heartbeat("steady", { period: "2s", grace: "1s" });
    const unfinished = await heartbeat("unfinished", { period: "1h", grace: "2s" });
    const exits = await heartbeat("exit-three", { period: "1h", grace: "1m" });
    const wrapped = await heartbeat("wrapped", { period: "1h", grace: "1m" });
    const quiet = await heartbeat("quiet", { period: "1h", grace: "1m" });
    await createMaintenance(
      stack.db,
      stack.workspaceId,
      { title: "Backup migration", startsAt: Date.now() - 1000, endsAt: Date.now() + 3_600_000, monitors: [quiet.id] },
      "operator",
    );
    const started = Date.now();
    const steadyJob = job(steady.url);

    // Meanwhile, the other jobs report runs through the CLI.
    const start = await runCli(stack, "ping", "unfinished", "--start");
    expect(start.code, start.err).toBe(0);
    const startedAt = Date.now();
    const three = await runCli(stack, "run", "exit-three", "--", "sh", "-c", "echo copying 12 files; echo disk full >&2; exit 3");
    expect(three.code).toBe(3);
    expect(three.out).toContain("copying 12 files");
    expect(three.err).toContain("disk full");
    const ok = await runCli(stack, "run", String(wrapped.id), "--", "sh", "-c", "echo fine");
    expect(ok.code, ok.err).toBe(0);
    const failed = await runCli(stack, "ping", "quiet", "--fail", "--body", "rsync: connection refused");
    expect(failed.code, failed.err).toBe(0);

    await untilHeartbeat("the unfinished run is down", unfinished.id, () => errorOf(unfinished.id) !== undefined, 30_000);
    const late = errorOf(unfinished.id)!;
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(2000);
    expect(late.body.errorMessage).toMatch(/^no ping since the run started at .*: it did not finish within its 2 s grace$/);
    await until("exit code 3 alerts", async () => errorOf(exits.id) !== undefined, 30_000, 200);
    expect(errorOf(exits.id)!.body.errorMessage).toMatch(/code 3.*(copying 12 files|disk full)/s);

    // Bad CLI input is named, and nothing is sent.
    const bad = await runCli(stack, "ping", "steady", "--exit", "300");
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("--exit must be a whole number from 0 to 255");

    await sleep(Math.max(0, 60_000 - (Date.now() - started)));
    await steadyJob.stop();
    expect(alerts(steady.id)).toEqual([]);
    expect(alerts(wrapped.id)).toEqual([]);
    expect(alerts(quiet.id), "a maintenance window holds the alert back").toEqual([]);
    expect(alerts(unfinished.id)).toEqual(["error"]);
    expect(alerts(exits.id)).toEqual(["error"]);
    const quietEvents = await stack.api("GET", `/v1/heartbeats/${quiet.id}`);
    expect(quietEvents.body.state).toBe("down");
  });

  it("a job that stops is down within period + grace + 5 s, once, and recovers once when it resumes", { timeout: 120_000 }, async () => {
    const hb = await heartbeat("stops", { period: "2s", grace: "1s" });
    let running = job(hb.url);
    await sleep(6000);
    await running.stop();
    const stopped = Date.now();
    await until("down", async () => alerts(hb.id).includes("error"), 30_000, 100);
    expect(Date.now() - stopped).toBeLessThan(2000 + 1000 + 5000);
    running = job(hb.url);
    await until("recovered", async () => alerts(hb.id).includes("recovered"), 30_000, 100);
    await sleep(4000);
    await running.stop();
    expect(alerts(hb.id)).toEqual(["error", "recovered"]);
  });

  it("with the server away for 30 s while the job keeps pinging with retries, no alert follows its return", {
    timeout: 240_000,
  }, async () => {
    // 10 s of grace: on a loaded machine the job's own curl can start seconds late, and this case is about
    // the outage (30 s, well past period + grace), not about the job's punctuality.
    const hb = await heartbeat("through-outage", { period: "2s", grace: "10s" });
    const running = job(hb.url);
    await sleep(6000);
    await stack.server.kill("SIGKILL");
    await sleep(30_000);
    await stack.server.start();
    // Past the deadline re-armed at the return (period + grace = 12 s), the job still pinging.
    await sleep(20_000);
    expect(alerts(hb.id), JSON.stringify(errorOf(hb.id)?.body)).toEqual([]);
    const details = await stack.api("GET", `/v1/heartbeats/${hb.id}`);
    expect(details.body.state).not.toBe("down");
    // Only now does the job stop: curl's retries carried its runs through the outage, and at most one in
    // flight at the kill may be cut (curl exit 52/56). Runs still backing off land later, so a deadline
    // after this point is a real silence, not part of this case.
    const codes = await running.stop();
    expect(codes.filter((c) => c !== 0 && c !== 52 && c !== 56)).toEqual([]);
    expect(codes.filter((c) => c !== 0).length).toBeLessThanOrEqual(1);
  });

  it("workflows killed at a deadline send exactly one alert once back", { timeout: 180_000 }, async () => {
    const hb = await heartbeat("deadline-crash", { period: "2s", grace: "1s" });
    expect(await curl(hb.url)).toBe(0);
    const { body } = await stack.api("GET", `/v1/heartbeats/${hb.id}`);
    await sleep(Math.max(0, body.deadlineAt - Date.now()));
    await stack.workflows.kill("SIGKILL");
    await stack.workflows.start();
    await until("down", async () => alerts(hb.id).includes("error"), 60_000, 100);
    await sleep(5000);
    expect(alerts(hb.id)).toEqual(["error"]);
  });
});
