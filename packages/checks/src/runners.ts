import type { AttemptOptions } from "./budget";
import type { CheckDefinition, CheckKindName } from "./kinds";
import { runDnsCheck } from "./kinds/dns/run";
import { runDomainCheck } from "./kinds/domain/run";
import { runGrpcCheck } from "./kinds/grpc/run";
import { runHeartbeatCheck } from "./kinds/heartbeat/run";
import { runHttpCheck } from "./kinds/http/run";
import { runMysqlCheck } from "./kinds/mysql/run";
import { runPingCheck } from "./kinds/ping/run";
import { runPostgresCheck } from "./kinds/postgres/run";
import { runRedisCheck } from "./kinds/redis/run";
import { runTcpCheck } from "./kinds/tcp/run";
import { runTlsCheck } from "./kinds/tls/run";
import { runWebSocketCheck } from "./kinds/websocket/run";
import type { CheckResult } from "./schema";

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
  grpc: runGrpcCheck,
  websocket: runWebSocketCheck,
  postgres: runPostgresCheck,
  mysql: runMysqlCheck,
  redis: runRedisCheck,
};
