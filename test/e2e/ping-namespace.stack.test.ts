// Ping checks through the real probe, server and workflows. The probe runs inside a network namespace
// the test makes (unshare -rn), reaching the server over a unix socket, so the test can make 127.0.0.1
// stop answering ping there (and only there): one error webhook, then one recovered.
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { createServer, type Server, connect as tcpConnect } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createPrivateLocation } from "@vigil/core";
import { freePort } from "@vigil/testing";
import { serviceBundle } from "@vigil/testing/service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookChannel, type Stack, startStack, until, WebhookReceiver } from "./harness";

const root = fileURLToPath(new URL("../..", import.meta.url));
const namespaces = spawnSync("unshare", ["-rn", "true"]).status === 0 && spawnSync("nsenter", ["--version"]).status === 0;

describe.skipIf(!namespaces)("ping checks end to end, from a probe inside a network namespace", () => {
  let stack: Stack;
  let bridge: Server;
  let probe: ChildProcess | undefined;
  let probeLog = "";
  const hook = new WebhookReceiver();

  /** Sets whether 127.0.0.1 and ::1 answer echo requests in the probe's namespace (never the host's). */
  const answerPing = (on: boolean) => {
    const v = on ? 0 : 1;
    execFileSync("nsenter", [
      "-t",
      String(probe!.pid),
      "-n",
      "sh",
      "-c",
      `echo ${v} > /proc/sys/net/ipv4/icmp_echo_ignore_all; echo ${v} > /proc/sys/net/ipv6/icmp/echo_ignore_all`,
    ]);
  };

  beforeAll(async () => {
    await hook.start();
    stack = await startStack(["iad"]);
    const socketPath = join(stack.dir, "ingest.sock");
    bridge = createServer((c) => {
      const upstream = tcpConnect(Number(stack.server.env.PORT), "127.0.0.1");
      c.pipe(upstream).pipe(c);
      c.on("error", () => upstream.destroy());
      upstream.on("error", () => c.destroy());
    });
    await new Promise<void>((r) => bridge.listen(socketPath, r));
    const { key } = await createPrivateLocation(stack.db, stack.workspaceId, { name: "probe-netns", region: "ams" }, "operator");
    const port = String(await freePort());
    probe = spawn(
      "unshare",
      [
        "-rn",
        "sh",
        "-c",
        'ip link set lo up; "$0" --import tsx test/e2e/netns-bridge.ts "$1" "$2" & exec "$0" "$3"',
        process.execPath,
        socketPath,
        port,
        // The probe from its bundle; the bridge is a test helper, run as source.
        serviceBundle("private-location"),
      ],
      {
        cwd: root,
        detached: true, // its own process group: the bridge inside goes down with it
        env: {
          ...process.env,
          SERVICE_KEY: key,
          SERVICE_INGEST_URL: `http://127.0.0.1:${port}`,
          PORT: String(await freePort()),
          HOST: "127.0.0.1",
          LOG_LEVEL: "warn",
          PROBE_DATA_DIR: join(stack.dir, "probe-netns"),
          PROBE_SEND_INTERVAL_MS: "200",
          PROBE_WAIT_MS: "5000",
          PROBE_MAX_BACKOFF_MS: "1000",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    probe.stdout!.on("data", (d) => (probeLog = (probeLog + d).slice(-10_000)));
    probe.stderr!.on("data", (d) => (probeLog = (probeLog + d).slice(-10_000)));
  }, 180_000);

  afterAll(async () => {
    if (probe?.pid && probe.exitCode === null) process.kill(-probe.pid, "SIGKILL");
    await stack?.close();
    await new Promise<void>((r) => (bridge ? bridge.close(() => r()) : r()));
    await hook.stop();
  });

  it("127.0.0.1 stops answering: one error webhook saying 100 % loss; answers again: one recovered", { timeout: 300_000 }, async () => {
    await hookChannel(stack, hook);
    const created = await stack.api("POST", "/v1/monitors", {
      name: "loopback ping",
      kind: "ping",
      frequency: "30s",
      regions: ["ams"],
      retry: 0,
      timeout: 5000,
      channels: ["hook"],
      request: { host: "127.0.0.1", packets: 3, packetTimeout: 500 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    await until(
      "a first successful ping from the namespaced probe",
      async () => {
        if (probe?.exitCode !== null) throw new Error(`probe exited:\n${probeLog}`);
        const rows = await stack.db.$client.execute({ sql: "select status from check_result where monitor_id = ?", args: [id] });
        return rows.rows.some((r) => r.status === "success");
      },
      120_000,
    );
    answerPing(false);
    await until("the error webhook", () => hook.of(id).includes("error"), 120_000);
    answerPing(true);
    await until("the recovered webhook", () => hook.of(id).includes("recovered"), 120_000);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(hook.of(id)).toEqual(["error", "recovered"]);
    const [error, recovered] = hook.deliveries.filter((d) => d.monitorId === id);
    expect(error!.body).toMatchObject({
      monitor: { id, name: "loopback ping", url: "127.0.0.1" },
      status: "error",
      errorMessage: "ping: 100 % loss (3/3) to 127.0.0.1",
    });
    expect(
      Object.keys(error!.body).every((k) => ["monitor", "cronTimestamp", "status", "statusCode", "latency", "errorMessage"].includes(k)),
    ).toBe(true);
    expect(recovered!.body).toMatchObject({ monitor: { id }, status: "recovered" });
    expect(recovered!.body.errorMessage).toBeUndefined();
  });
});
