import { afterEach, describe, expect, it } from "vitest";
import { runCheck, runTcpCheck } from "../../index";
import { fullBacklogListener, listenTcp, type Running, refusedPort } from "../../testing/servers";
import { TcpCheck } from "./index";

const tcp = (input: Omit<Partial<TcpCheck>, "kind"> & { host: string; port: number }) =>
  TcpCheck.parse({ kind: "tcp", retry: 0, ...input });

const open: { close: () => Promise<void> }[] = [];
const use = <T extends { close: () => Promise<void> }>(s: T): T => {
  open.push(s);
  return s;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

describe("TCP checks", () => {
  it("a TCP monitor on a listening IPv4 port succeeds and reports its connect time as latency", async () => {
    const server: Running = use(await listenTcp("127.0.0.1"));
    const result = await runTcpCheck(tcp({ host: "127.0.0.1", port: server.port }));
    expect(result.status).toBe("success");
    expect(result.errorMessage).toBeUndefined();
    expect(result.latencyMs).toBeGreaterThan(0);
    expect(result.latencyMs).toBeLessThan(100);
    expect(result.timings?.connect).toBe(result.latencyMs);
    expect(result.timings?.dns).toBeUndefined(); // an IP literal needs no lookup
    expect(result.timings!.total).toBeGreaterThanOrEqual(result.latencyMs);
  });

  it("a TCP monitor on IPv6 ::1 connects", async () => {
    const server = use(await listenTcp("::1"));
    const result = await runTcpCheck(tcp({ host: "::1", port: server.port }));
    expect(result).toMatchObject({ status: "success", attempts: 1 });
  });

  it("a TCP monitor by hostname resolves DNS apart and reports it in timings", async () => {
    const server = use(await listenTcp("127.0.0.1"));
    const result = await runTcpCheck(tcp({ host: "localhost", port: server.port }));
    expect(result.status).toBe("success");
    expect(result.timings?.dns).toBeGreaterThan(0);
    expect(result.latencyMs).toBe(result.timings?.connect);
  });

  it("a refused port is an error that says connection refused", async () => {
    const port = await refusedPort();
    const result = await runTcpCheck(tcp({ host: "127.0.0.1", port }));
    expect(result.status).toBe("error");
    expect(result.errorMessage).toBe(`connection refused by 127.0.0.1:${port}`);
  });

  it("an unknown host is an error naming the DNS failure", async () => {
    const result = await runTcpCheck(tcp({ host: "foo.invalid", port: 80 }));
    expect(result.status).toBe("error");
    expect(result.errorMessage).toMatch(/^DNS lookup failed for foo\.invalid: (ENOTFOUND|EAI_AGAIN|EAI_NONAME)$/);
  });

  it("a port that never completes the handshake times out after the monitor's timeout", async () => {
    const server = use(await fullBacklogListener());
    const started = performance.now();
    const result = await runTcpCheck(tcp({ host: "127.0.0.1", port: server.port, timeoutMs: 300 }));
    const took = performance.now() - started;
    expect(result.status).toBe("error");
    expect(result.errorMessage).toBe(`connection to 127.0.0.1:${server.port} timed out after 300 ms`);
    expect(took).toBeGreaterThanOrEqual(295);
    expect(took).toBeLessThan(600);
  });

  it("a TCP monitor that connects slower than degraded reports degraded", async () => {
    // The SYN is dropped while the queue is full; once released, the client's retransmit (~1 s) gets through.
    const server = use(await fullBacklogListener());
    setTimeout(server.release, 50);
    const result = await runTcpCheck(tcp({ host: "127.0.0.1", port: server.port, timeoutMs: 5000, degradedAfterMs: 200 }));
    expect(result.status).toBe("degraded");
    expect(result.latencyMs).toBeGreaterThan(200);
    expect(result.errorMessage).toBeUndefined();
  });

  it("a TCP monitor under its degraded threshold stays success", async () => {
    const server = use(await listenTcp());
    const result = await runTcpCheck(tcp({ host: "127.0.0.1", port: server.port, degradedAfterMs: 1000 }));
    expect(result.status).toBe("success");
  });

  it("aborting a TCP check returns an aborted error instead of throwing", async () => {
    const server = use(await fullBacklogListener());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const result = await runCheck(tcp({ host: "127.0.0.1", port: server.port, timeoutMs: 5000, retry: 3 }), { signal: controller.signal });
    expect(result).toMatchObject({ status: "error", errorMessage: "aborted", attempts: 1 });
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
