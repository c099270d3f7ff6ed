import { databaseKind } from "../database";

const r = databaseKind({ kind: "redis", schemes: ["redis", "rediss"], defaultPort: 6379, defaultQuery: "PING", system: "redis" });

export const redis = r.kind;
export const RedisCheck = r.check;
export type RedisCheck = import("zod").infer<typeof RedisCheck>;
