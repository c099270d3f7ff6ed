import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { EgressPolicy } from "@vigil/egress";
import { describe, expect, it } from "vitest";
import { runCheck, runPingCheck } from "../../index";
import type { CheckResult } from "../../schema";
import { PingCheck } from "./index";
import { parsePing } from "./run";

const ping = (input: Omit<Partial<PingCheck>, "kind" | "assertions"> & { host: string; assertions?: unknown[] }) =>
  PingCheck.parse({ kind: "ping", retry: 0, ...input });

const root = fileURLToPath(new URL("../../../../../", import.meta.url));
const script = fileURLToPath(new URL("../../testing/check-in-netns.ts", import.meta.url));

/** Whether this kernel lets an unprivileged user namespace own a network namespace. */
const namespaces = spawnSync("unshare", ["-rn", "true"]).status === 0;

/** Runs the check inside a fresh network namespace after `setup` (shell, as the namespace's root). */
function inNamespace(setup: string, def: PingCheck): CheckResult {
  const out = execFileSync(
    "unshare",
    ["-rn", "sh", "-c", `${setup}; exec "$0" --import tsx "$1" "$2"`, process.execPath, script, JSON.stringify(def)],
    {
      cwd: root,
      encoding: "utf8",
      timeout: 30_000,
    },
  );
  return JSON.parse(out) as CheckResult;
}

describe("ping checks", () => {
  it("pinging 127.0.0.1 succeeds with no loss and the round trips as min/avg/max", async () => {
    const result = await runPingCheck(ping({ host: "127.0.0.1", packets: 3 }));
    expect(result.status).toBe("success");
    expect(result.details).toMatchObject({ packetLoss: 0, sent: 3, received: 3 });
    const { rttMin, rttAvg, rttMax } = result.details as Record<string, number>;
    expect(rttMin).toBeGreaterThan(0);
    expect(rttMin).toBeLessThanOrEqual(rttAvg!);
    expect(rttAvg).toBeLessThanOrEqual(rttMax!);
    expect(result.latencyMs).toBe(rttAvg);
  });

  it("pinging ::1 over IPv6 succeeds", async () => {
    const result = await runPingCheck(ping({ host: "::1", packets: 2 }));
    expect(result).toMatchObject({ status: "success", details: { packetLoss: 0, received: 2 } });
  });

  it("a host name is resolved and pinged", async () => {
    const result = await runPingCheck(ping({ host: "localhost", packets: 1 }));
    expect(result.status).toBe("success");
  });

  it("assertions on loss and latency are judged: a latency that cannot hold fails the check, naming it", async () => {
    const result = await runPingCheck(
      ping({
        host: "127.0.0.1",
        packets: 2,
        assertions: [
          { kind: "packetLoss", compare: "lte", target: 0 },
          { kind: "latency", compare: "lt", target: 0 },
        ],
      }),
    );
    expect(result.status).toBe("error");
    expect(result.assertions?.[0]).toMatchObject({ ok: true, message: "packet loss: lte 0 % (got 0 %)" });
    expect(result.errorMessage).toMatch(/^latency: expected lt 0 ms, got \d+ ms$/);
  });

  it("an unknown host is an error naming the DNS failure", async () => {
    const result = await runPingCheck(ping({ host: "nothing.invalid", packets: 1 }));
    expect(result.status).toBe("error");
    expect(result.errorMessage).toMatch(/^ping: DNS lookup failed for nothing\.invalid: /);
  });

  it("a host on the location's deny list is refused without a packet sent", async () => {
    const egress = await EgressPolicy.create({ deny: [{ addresses: ["127.0.0.0/8"], reason: "on this location's deny list" }] });
    const result = await runCheck(ping({ host: "127.0.0.1", packets: 1 }), { egress });
    expect(result.errorMessage).toBe("ping: target 127.0.0.1:0 is on this location's deny list; refused");
  });

  it("reads iputils' counts and round trips, lost packets included", () => {
    const out = [
      "PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.",
      "64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.354 ms",
      "64 bytes from 127.0.0.1: icmp_seq=3 ttl=64 time=1.20 ms",
      "",
      "--- 127.0.0.1 ping statistics ---",
      "4 packets transmitted, 2 received, 50% packet loss, time 603ms",
    ].join("\n");
    expect(parsePing(out, 4)).toEqual({ sent: 4, received: 2, rtts: [0.354, 1.2] });
  });

  describe.skipIf(!namespaces)("inside a network namespace the test makes", () => {
    const silent = "ip link set lo up; echo 1 > /proc/sys/net/ipv4/icmp_echo_ignore_all; echo 1 > /proc/sys/net/ipv6/icmp/echo_ignore_all";
    // Each case starts a node process in the namespace: slow on a loaded machine, hence the long test timeouts.
    it("every packet unanswered over IPv4 is an error saying 100 % loss", { timeout: 120_000 }, () => {
      const v4 = inNamespace(silent, ping({ host: "127.0.0.1", packets: 3, packetTimeoutMs: 300 }));
      expect(v4).toMatchObject({ status: "error", errorMessage: "ping: 100 % loss (3/3) to 127.0.0.1" });
    });

    it("every packet unanswered over IPv6 is an error saying 100 % loss", { timeout: 120_000 }, () => {
      const v6 = inNamespace(silent, ping({ host: "::1", packets: 2, packetTimeoutMs: 300 }));
      expect(v6).toMatchObject({ status: "error", errorMessage: "ping: 100 % loss (2/2) to ::1" });
    });

    it("a network that is down is an error naming ping's own complaint", { timeout: 120_000 }, () => {
      const result = inNamespace("true", ping({ host: "127.0.0.1", packets: 1 }));
      expect(result.status).toBe("error");
      expect(result.errorMessage).toBe("ping: connect: Network is unreachable (127.0.0.1)");
    });

    it("the check's timeout bounds it however many packets are still due", { timeout: 120_000 }, () => {
      const result = inNamespace(silent, ping({ host: "127.0.0.1", packets: 20, packetTimeoutMs: 5000, timeoutMs: 600 }));
      expect(result).toMatchObject({ status: "error", errorMessage: "ping of 127.0.0.1 timed out after 600 ms" });
      // 20 packets would take at least 4 s; the check stopped ping at its 600 ms.
      expect(result.timings!.total).toBeLessThan(2000);
    });
  });
});
