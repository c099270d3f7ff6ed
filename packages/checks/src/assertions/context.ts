import type { AssertionOutcome, CertificateInfo } from "../schema";
import type { Assertion, PacketLossAssertion } from "./schema";

type AnyAssertion = Assertion | PacketLossAssertion;

/** What assertions look at: the final response of one attempt. */
export interface ResponseView {
  statusCode: number;
  /** Lower-case names, as undici delivers them. */
  headers: Record<string, string | string[] | undefined>;
  /** The decoded body, or for a JSON-RPC check the JSON-RPC reply message (not the SSE framing). */
  body: string;
  bodyTruncated: boolean;
  latencyMs: number;
  /** textBody eq/not_eq compares parsed JSON when both sides parse (JSON-RPC: key order and spacing don't matter). */
  jsonText: boolean;
  /** The peer certificate (https only). */
  certificate?: CertificateInfo;
  /** Ping checks: the share of packets lost, in percent. */
  packetLossPercent?: number;
}

export type Evaluator<A extends AnyAssertion> = (assertion: A, response: ResponseView) => AssertionOutcome;
