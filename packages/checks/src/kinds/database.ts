import { z } from "zod";
import { ValueAssertion } from "../assertions/schema";
import { keepSecret, REDACTED, SecretNotKeptError } from "../fields";
import { checkBase, defineCheckKind } from "./kind";

/** What sets one database kind apart from the others. */
export interface DatabaseSpec<K extends string> {
  kind: K;
  /** URL schemes its connection strings use, the first the usual one. */
  schemes: readonly string[];
  defaultPort: number;
  defaultQuery: string;
  /** OpenTelemetry's `db.system.name`. */
  system: string;
}

/** host, port and database of a connection string, never its credentials. */
export function connectionTarget(connection: string, spec: { defaultPort: number }): { host: string; port: number; database: string } {
  const u = new URL(connection);
  return {
    host: u.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: Number(u.port || spec.defaultPort),
    database: decodeURIComponent(u.pathname.replace(/^\//, "")),
  };
}

const hasScheme = (value: string, schemes: readonly string[]) =>
  URL.canParse(value) && schemes.includes(new URL(value).protocol.replace(/:$/, ""));

/** A database monitor kind: a secret connection string, a query, assertions on the first row's first value. */
export function databaseKind<K extends string>(spec: DatabaseSpec<K>) {
  const example = `${spec.schemes[0]}://user:password@db.example.com:${spec.defaultPort}/`;
  const connection = z
    .string()
    .max(4096, "must be at most 4096 characters")
    .refine(
      (v) => v === REDACTED || (hasScheme(v, spec.schemes) && new URL(v).hostname !== ""),
      `must be a connection URL such as ${example} (${spec.schemes.map((s) => `${s}://`).join(" or ")}, with a host)`,
    );
  const check = z.object({
    kind: z.literal(spec.kind),
    connection: z.string().min(1),
    query: z.string().min(1).default(spec.defaultQuery),
    ...checkBase,
    assertions: z.array(ValueAssertion).default([]),
  });
  const request = z.object({
    /** A secret: stored encrypted, shown as "***"; sending "***" back keeps the stored one. */
    connection,
    query: z.string().trim().min(1, "must not be empty").max(65_536, "must be at most 64 KiB").default(spec.defaultQuery),
  });
  interface Columns {
    connection: string | null;
    options: Record<string, unknown> | null;
    assertions: ValueAssertion[] | null;
  }
  const keep = (draft: string, stored: string | null | undefined): string => {
    const kept = keepSecret(stored, draft, { stored: null, draft: null });
    if ("refused" in kept) throw new SecretNotKeptError([{ path: "request.connection", message: kept.refused }]);
    const value = String(kept.value);
    if (!hasScheme(value, spec.schemes))
      throw new SecretNotKeptError([
        { path: "request.connection", message: `"***" stands for a stored connection string that is not a ${spec.kind} one: enter it` },
      ]);
    return value;
  };
  const kind = defineCheckKind({
    kind: spec.kind,
    check,
    input: { request, assertions: z.array(ValueAssertion).max(20, "must have at most 20 assertions").default([]) },
    output: { request, assertions: z.array(ValueAssertion) },
    requestKey: "connection",
    exampleRequest: { connection: `${spec.schemes[0]}://x` },
    requestOrder: ["connection", "query"],
    secretFields: ["connection"],
    describe: `Connects with the connection string, runs the query (default ${spec.defaultQuery}) and asserts on the first row's first value.`,
    toCheck: ({ request: r, assertions }) => ({ connection: r.connection, query: r.query, assertions }),
    toRow: (m, previous?: Partial<Columns>): Columns => ({
      connection: m ? keep(m.request.connection, previous?.connection) : null,
      options: m ? { query: m.request.query } : null,
      assertions: m?.assertions ?? null,
    }),
    fromRow: (row: Columns, reveal) => ({
      request: {
        connection: reveal ? (row.connection ?? "") : REDACTED,
        query: typeof row.options?.query === "string" ? row.options.query : spec.defaultQuery,
      },
      assertions: row.assertions ?? [],
    }),
    target: (row) => {
      if (!row.connection || !URL.canParse(row.connection)) return `${spec.schemes[0]}://`;
      const { host, port, database } = connectionTarget(row.connection, spec);
      return `${new URL(row.connection).protocol}//${host.includes(":") ? `[${host}]` : host}:${port}/${database}`;
    },
    attributes: (c) => {
      const { host, port, database } = connectionTarget(c.connection, spec);
      return {
        "db.system.name": spec.system,
        "db.system": spec.system,
        "server.address": host,
        "server.port": port,
        ...(database && { "db.namespace": database }),
      };
    },
  });
  return { kind, check, request };
}
