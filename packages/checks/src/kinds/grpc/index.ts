import { z } from "zod";
import { checkBase, defineCheckKind } from "../kind";
import { TcpRequest } from "../tcp";

export const GrpcCheck = z.object({
  kind: z.literal("grpc"),
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535),
  tls: z.boolean().default(false),
  /** The service asked about; "" asks about the server as a whole. */
  service: z.string().default(""),
  ...checkBase,
});
export type GrpcCheck = z.infer<typeof GrpcCheck>;

export const GrpcRequest = z.object({
  host: TcpRequest.shape.host,
  port: TcpRequest.shape.port,
  tls: z.boolean().default(false),
  service: z
    .string()
    .max(200, "must be at most 200 characters")
    .regex(/^[A-Za-z0-9_.\-/]*$/, "must be a gRPC service name such as my.package.Service")
    .default(""),
});

interface GrpcColumns {
  host: string | null;
  port: number | null;
  options: Record<string, unknown> | null;
}

export const grpc = defineCheckKind({
  kind: "grpc",
  check: GrpcCheck,
  input: { request: GrpcRequest },
  output: { request: GrpcRequest },
  requestKey: "service",
  exampleRequest: { host: "x", port: 1 },
  requestOrder: ["host", "port", "tls", "service"],
  describe: "Calls grpc.health.v1.Health/Check; SERVING passes, any other status is an error.",
  toCheck: ({ request }) => ({ host: request.host, port: request.port, tls: request.tls, service: request.service }),
  toRow: (m): GrpcColumns => ({
    host: m?.request.host ?? null,
    port: m?.request.port ?? null,
    options: m ? { tls: m.request.tls, service: m.request.service } : null,
  }),
  fromRow: (row: GrpcColumns) => ({
    request: {
      host: row.host ?? "",
      port: row.port ?? 0,
      tls: row.options?.tls === true,
      service: typeof row.options?.service === "string" ? row.options.service : "",
    },
  }),
  target: (row) => {
    const host = row.host ?? "";
    const tls = (row.options as { tls?: boolean } | null | undefined)?.tls;
    return `grpc${tls ? "s" : ""}://${host.includes(":") ? `[${host}]` : host}:${row.port ?? ""}`;
  },
  attributes: (check, result) => ({
    "rpc.system": "grpc",
    "rpc.service": "grpc.health.v1.Health",
    "rpc.method": "Check",
    "server.address": check.host,
    "server.port": check.port,
    ...(typeof result.details?.grpcStatusCode === "number" && { "rpc.grpc.status_code": result.details.grpcStatusCode }),
  }),
});
