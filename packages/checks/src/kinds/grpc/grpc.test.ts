import { Server, ServerCredentials } from "@grpc/grpc-js";
import { EgressPolicy } from "@vigil/egress";
import { HealthImplementation } from "grpc-health-check";
import { afterEach, describe, expect, it } from "vitest";
import { runCheck } from "../../index";
import { refusedPort } from "../../testing/servers";
import { GrpcCheck } from "./index";
import { runGrpcCheck } from "./run";

const grpc = (input: Omit<Partial<GrpcCheck>, "kind"> & { host: string; port: number }) =>
  GrpcCheck.parse({ kind: "grpc", retry: 0, ...input });

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.forceShutdown();
});

/** A real gRPC server on loopback with the standard health service; `health.setStatus` toggles it. */
async function healthServer(host = "127.0.0.1") {
  const health = new HealthImplementation({ "": "SERVING", "shop.Cart": "SERVING" });
  const server = new Server();
  health.addToServer(server);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host.includes(":") ? `[${host}]` : host}:0`, ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  servers.push(server);
  return { health, port };
}

describe("gRPC health checks", () => {
  it("a SERVING server is up, with the call's time as latency", async () => {
    const { port } = await healthServer();
    const result = await runGrpcCheck(grpc({ host: "127.0.0.1", port }));
    expect(result).toMatchObject({ status: "success", details: { grpcStatusCode: 0, servingStatus: "SERVING" } });
    expect(result.latencyMs).toBeGreaterThan(0);
  });

  it("a service toggled to NOT_SERVING is an error naming the status, and up again once SERVING", async () => {
    const { health, port } = await healthServer();
    health.setStatus("shop.Cart", "NOT_SERVING");
    const down = await runGrpcCheck(grpc({ host: "127.0.0.1", port, service: "shop.Cart" }));
    expect(down.status).toBe("error");
    expect(down.errorMessage).toBe(`grpc: NOT_SERVING (service shop.Cart) at 127.0.0.1:${port}`);
    health.setStatus("shop.Cart", "SERVING");
    expect((await runGrpcCheck(grpc({ host: "127.0.0.1", port, service: "shop.Cart" }))).status).toBe("success");
  });

  it("a service the server does not know is an error with gRPC's NOT_FOUND", async () => {
    const { port } = await healthServer();
    const result = await runGrpcCheck(grpc({ host: "127.0.0.1", port, service: "no.Such" }));
    expect(result.status).toBe("error");
    expect(result.errorMessage).toMatch(/^grpc: NOT_FOUND: /);
    expect(result.details?.grpcStatusCode).toBe(5);
  });

  it("works over IPv6 ::1", async () => {
    const { port } = await healthServer("::1");
    expect((await runGrpcCheck(grpc({ host: "::1", port }))).status).toBe("success");
  });

  it("a port nothing listens on is UNAVAILABLE", async () => {
    const port = await refusedPort();
    const result = await runGrpcCheck(grpc({ host: "127.0.0.1", port, timeoutMs: 3000 }));
    expect(result.status).toBe("error");
    expect(result.errorMessage).toMatch(/^grpc: UNAVAILABLE: /);
  });

  it("TLS against a plaintext server fails, bounded by the timeout", async () => {
    const { port } = await healthServer();
    const started = performance.now();
    const result = await runGrpcCheck(grpc({ host: "127.0.0.1", port, tls: true, timeoutMs: 1500 }));
    expect(result.status).toBe("error");
    expect(result.errorMessage).toMatch(/^grpc: (UNAVAILABLE|DEADLINE_EXCEEDED)|timed out/);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it("a server that is one of the instance's own endpoints is refused before any connection", async () => {
    const { port } = await healthServer();
    const egress = await EgressPolicy.create({ instance: [{ name: "redis", url: `redis://127.0.0.1:${port}` }] });
    const result = await runCheck(grpc({ host: "localhost", port }), { egress });
    expect(result.status).toBe("error");
    expect(result.errorMessage).toMatch(new RegExp(`^grpc: target localhost:${port} \\(.+\\) is this instance's redis; refused$`));
  });
});
