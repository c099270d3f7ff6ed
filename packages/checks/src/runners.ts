import type { AttemptOptions } from "./budget";
import type { CheckDefinition, CheckKindName } from "./kinds";
import { runDnsCheck } from "./kinds/dns/run";
import { runDomainCheck } from "./kinds/domain/run";
import { runHeartbeatCheck } from "./kinds/heartbeat/run";
import { runHttpCheck } from "./kinds/http/run";
import { runPingCheck } from "./kinds/ping/run";
import { runRedisCheck } from "./kinds/redis/run";
import { runTcpCheck } from "./kinds/tcp/run";
import { runTlsCheck } from "./kinds/tls/run";
import { runWebSocketCheck } from "./kinds/websocket/run";
import type { CheckResult } from "./schema";

// The database and gRPC kinds' drivers (~1.2 MB of code with their dependencies) load on their first check:
// a probe that has none of these monitors never holds them.
const grpc = () => import("./kinds/grpc/run");
const mysql = () => import("./kinds/mysql/run");
const postgres = () => import("./kinds/postgres/run");

/**
 * One attempt of each kind. Apart from the registry because runners need sockets and undici, which
 * the schemas' importers (the dashboard's browser code among them) must not load; the type makes a
 * kind without a runner fail to compile.
 */
export const runners: {
  [K in CheckKindName]: (def: Extract<CheckDefinition, { kind: K }>, opts: AttemptOptions) => Promise<CheckResult>;
} = {
  http: runHttpCheck,
  tcp: runTcpCheck,
  heartbeat: runHeartbeatCheck,
  tls: runTlsCheck,
  dns: runDnsCheck,
  domain: runDomainCheck,
  ping: runPingCheck,
  grpc: async (def, opts) => (await grpc()).runGrpcCheck(def, opts),
  websocket: runWebSocketCheck,
  postgres: async (def, opts) => (await postgres()).runPostgresCheck(def, opts),
  mysql: async (def, opts) => (await mysql()).runMysqlCheck(def, opts),
  redis: runRedisCheck,
};
