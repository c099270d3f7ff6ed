import { z } from "zod";
import { checkBase, defineCheckKind } from "../kind";

export const TcpCheck = z.object({
  kind: z.literal("tcp"),
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535),
  ...checkBase,
});
export type TcpCheck = z.infer<typeof TcpCheck>;

export const HOST_RE = /^(?:\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]*:[0-9a-fA-F:.]+|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)$/;
export const Port = z.number().int("must be a whole number").min(1, "must be 1-65535").max(65535, "must be 1-65535");
/** A hostname or an IP address (IPv6 may come bracketed; it is stored bare). */
export const Host = z
  .string()
  .regex(HOST_RE, "must be a hostname or an IP address")
  .transform((h) => h.replace(/^\[(.*)\]$/, "$1"));

export const TcpRequest = z.object({
  host: Host,
  port: Port,
});

interface TcpColumns {
  host: string | null;
  port: number | null;
}

export const tcp = defineCheckKind({
  kind: "tcp",
  check: TcpCheck,
  input: { request: TcpRequest },
  output: { request: TcpRequest },
  requestKey: "host",
  exampleRequest: { host: "x", port: 1 },
  requestOrder: ["host", "port"],
  toCheck: ({ request }) => ({ host: request.host, port: request.port }),
  toRow: (m): TcpColumns => ({ host: m?.request.host ?? null, port: m?.request.port ?? null }),
  fromRow: (row: TcpColumns) => ({ request: { host: row.host ?? "", port: row.port ?? 0 } }),
  target: (row) => {
    const host = row.host ?? "";
    return `${host.includes(":") ? `[${host}]` : host}:${row.port ?? ""}`;
  },
  attributes: (check) => ({ "server.address": check.host, "server.port": check.port }),
});
