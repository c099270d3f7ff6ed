import { z } from "zod";
import { PingAssertion } from "../../assertions/schema";
import { checkBase, defineCheckKind } from "../kind";
import { TcpRequest } from "../tcp";

export const PingCheck = z.object({
  kind: z.literal("ping"),
  host: z.string().min(1),
  packets: z.number().int().min(1).max(20).default(3),
  packetTimeoutMs: z.number().int().positive().default(1000),
  ...checkBase,
  assertions: z.array(PingAssertion).default([]),
});
export type PingCheck = z.infer<typeof PingCheck>;

export const PingRequest = z.object({
  host: TcpRequest.shape.host,
  packets: z.number().int("must be a whole number").min(1, "must be 1-20").max(20, "must be 1-20").default(3),
  /** How long to wait for each reply, in milliseconds. */
  packetTimeout: z
    .number()
    .int("must be a whole number of milliseconds")
    .min(100, "must be 100-10000 ms")
    .max(10_000, "must be 100-10000 ms")
    .default(1000),
});

interface PingColumns {
  host: string | null;
  options: Record<string, unknown> | null;
  assertions: PingAssertion[] | null;
}

export const ping = defineCheckKind({
  kind: "ping",
  check: PingCheck,
  input: { request: PingRequest, assertions: z.array(PingAssertion).max(20, "must have at most 20 assertions").default([]) },
  output: { request: PingRequest, assertions: z.array(PingAssertion) },
  requestKey: "packets",
  exampleRequest: { host: "x" },
  requestOrder: ["host", "packets", "packetTimeout"],
  describe: "Sends ICMP echo requests (IPv4 or IPv6); 100 % loss is an error. Packet timeout in ms.",
  toCheck: ({ request, assertions }) => ({
    host: request.host,
    packets: request.packets,
    packetTimeoutMs: request.packetTimeout,
    assertions,
  }),
  toRow: (m): PingColumns => ({
    host: m?.request.host ?? null,
    options: m ? { packets: m.request.packets, packetTimeout: m.request.packetTimeout } : null,
    assertions: m?.assertions ?? null,
  }),
  fromRow: (row: PingColumns) => ({
    request: {
      host: row.host ?? "",
      packets: Number(row.options?.packets ?? 3),
      packetTimeout: Number(row.options?.packetTimeout ?? 1000),
    },
    assertions: row.assertions ?? [],
  }),
  target: (row) => row.host ?? "",
  attributes: (check, result) => ({
    "server.address": check.host,
    "network.protocol.name": "icmp",
    ...(typeof result.details?.packetLoss === "number" && { "vigil.ping.packet_loss": result.details.packetLoss }),
    ...(typeof result.details?.rttMin === "number" && { "vigil.ping.rtt.min": result.details.rttMin }),
    ...(typeof result.details?.rttMax === "number" && { "vigil.ping.rtt.max": result.details.rttMax }),
  }),
});
