import { isIP } from "node:net";
import { type Client, credentials, makeGenericClientConstructor, type ServiceError, status } from "@grpc/grpc-js";
import { allowedAddresses, EgressPolicy } from "@vigil/egress";
import { service as healthService } from "grpc-health-check";
import { AttemptBudget, type AttemptOptions } from "../../budget";
import { formatTarget } from "../../dns";
import { describeConnectError } from "../../net-errors";
import { errorResult } from "../../result";
import type { CheckResult } from "../../schema";
import { judge } from "../judge";
import type { GrpcCheck } from "./index";

// The standard grpc.health.v1 service definition, as shipped by grpc-node's own health package.
const HealthClient = makeGenericClientConstructor(healthService as never, "grpc.health.v1.Health");
type HealthReply = { status?: string };
type Check = (req: { service: string }, opts: { deadline: Date }, cb: (err: ServiceError | null, reply?: HealthReply) => void) => unknown;

/** One attempt at a gRPC health check: the address checked against egress first, then grpc.health.v1.Health/Check. */
export async function runGrpcCheck(def: GrpcCheck, opts: AttemptOptions = {}): Promise<CheckResult> {
  const budget = new AttemptBudget(opts.timeoutMs ?? def.timeoutMs, opts.signal);
  const target = formatTarget(def.host, def.port);
  const fail = (message: string, details?: CheckResult["details"]) => ({
    ...errorResult(message, budget.elapsed(), { total: budget.elapsed() }),
    ...(details && { details }),
  });
  let client: Client | undefined;
  try {
    let address: string;
    try {
      address = (await allowedAddresses(opts.egress ?? EgressPolicy.none, def.host, def.port, budget.signal))[0]!.address;
    } catch (err) {
      return fail(budget.stopMessage(`grpc: connection to ${target}`) ?? `grpc: ${describeConnectError(err, target)}`);
    }
    // Connect to exactly the checked address; the authority and TLS name stay the host's.
    const dial = address.includes(":") ? `ipv6:[${address}]:${def.port}` : `ipv4:${address}:${def.port}`;
    client = new HealthClient(dial, def.tls ? credentials.createSsl() : credentials.createInsecure(), {
      "grpc.default_authority": formatTarget(def.host, def.port),
      ...(def.tls && !isIP(def.host) && { "grpc.ssl_target_name_override": def.host }),
      "grpc.enable_retries": 0,
      "grpc.service_config_disable_resolution": 1,
    });
    const started = performance.now();
    const reply = await new Promise<{ err: ServiceError | null; reply?: HealthReply }>((resolve) => {
      const call = (client as unknown as { Check: Check }).Check(
        { service: def.service },
        { deadline: new Date(Date.now() + Math.max(1, budget.timeoutMs - budget.elapsed())) },
        (err, r) => resolve({ err, ...(r && { reply: r }) }),
      ) as { cancel(): void };
      budget.signal.addEventListener("abort", () => call.cancel(), { once: true });
    });
    const rpcMs = performance.now() - started;
    if (reply.err) {
      const stopped = budget.stopMessage(`grpc: health check of ${target}`);
      if (stopped) return fail(stopped, { grpcStatusCode: reply.err.code });
      const name = status[reply.err.code] ?? String(reply.err.code);
      return fail(`grpc: ${name}: ${reply.err.details || "no details"} (${target})`, { grpcStatusCode: reply.err.code });
    }
    const serving = reply.reply?.status ?? "UNKNOWN";
    if (serving !== "SERVING")
      return fail(`grpc: ${serving}${def.service ? ` (service ${def.service})` : ""} at ${target}`, {
        grpcStatusCode: status.OK,
        servingStatus: serving,
      });
    return judge(
      { assertions: [], degradedAfterMs: def.degradedAfterMs },
      { latencyMs: rpcMs, timings: { total: budget.elapsed() }, details: { grpcStatusCode: status.OK, servingStatus: serving } },
    );
  } finally {
    client?.close();
    budget.dispose();
  }
}
