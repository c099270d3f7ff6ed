import { z } from "zod";
import { dns } from "./dns";
import { domain } from "./domain";
import { grpc } from "./grpc";
import { heartbeat } from "./heartbeat";
import { http } from "./http";
import type { AnyCheckKind } from "./kind";
import { mysql } from "./mysql";
import { ping } from "./ping";
import { postgres } from "./postgres";
import { redis } from "./redis";
import { tcp } from "./tcp";
import { tls } from "./tls";
import { websocket } from "./websocket";

export { DnsCheck, DnsRequest } from "./dns";
export { DomainCheck, DomainRequest } from "./domain";
export { HeartbeatCheck, HeartbeatRequest, nextCronTime, nextExpected, pingEndpoint, pingUrlOf, type Schedule } from "./heartbeat";
export { HttpCheck, HttpRequest } from "./http";
export { type AnyCheckKind, type CheckKind, checkBase, defineCheckKind } from "./kind";
export { TcpCheck, TcpRequest } from "./tcp";
export { TlsCheck, TlsRequest } from "./tls";

/** Each key must be its kind's name: lookups by a monitor's `kind` rely on it. */
const registry = <T extends { [K in keyof T]: AnyCheckKind & { readonly kind: K } }>(kinds: T): T => kinds;

/** Every check kind, one line each. Schemas, stored columns, runners, OTLP and YAML all derive from it. */
export const checkKinds = registry({
  http,
  tcp,
  heartbeat,
  tls,
  dns,
  domain,
  ping,
  grpc,
  websocket,
  postgres,
  mysql,
  redis,
});

export type CheckKindName = keyof typeof checkKinds;
export const CHECK_KINDS = Object.keys(checkKinds) as [CheckKindName, ...CheckKindName[]];

export const kindOf = (kind: CheckKindName): AnyCheckKind => checkKinds[kind];

type Checks = { [K in CheckKindName]: (typeof checkKinds)[K]["check"] }[CheckKindName];
/** What a probe runs: a monitor reduced to its check, with durations in milliseconds. */
export const CheckDefinition = z.discriminatedUnion("kind", Object.values(checkKinds).map((k) => k.check) as [Checks, ...Checks[]]);
export type CheckDefinition = z.infer<typeof CheckDefinition>;
export { hasAssertions, type RequestField, requestFields } from "./form";
