import type { z } from "zod";
import type { NotifierEnv } from "./env";
import type { NotificationEvent } from "./event";

/** One HTTP call to a provider; everything needed to send it, nothing computed at send time. */
export interface OutgoingHttp {
  transport: "http";
  method: "POST";
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** One mail handed to an SMTP relay; fixed Message-ID, date and MIME boundary make it reproducible. */
export interface OutgoingMail {
  transport: "smtp";
  smtpUrl: string;
  mail: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html: string;
    messageId: string;
    date: number;
    baseBoundary: string;
  };
}

export type OutgoingRequest = OutgoingHttp | OutgoingMail;

export interface BuildContext {
  env: NotifierEnv;
  /** Sending time in ms, passed in so that builders stay pure (webhook signatures, mail dates). */
  now: number;
  /** Same on every retry of one event to one channel: receivers deduplicate on it. */
  deliveryId?: string;
}

/**
 * A channel kind: its config schema, which config keys are secret, and a pure builder turning an
 * event into the request(s) to send. Requests are sent in order; the first failure stops the rest.
 */
export interface Channel<K extends string = string, C extends z.ZodObject = z.ZodObject> {
  readonly kind: K;
  readonly config: C;
  readonly secrets: readonly (keyof z.input<C> & string)[];
  /**
   * The config field holding the URL the secrets are sent to, when the user sets it: "***" keeps a
   * stored secret only while its origin is unchanged. Absent: the secret is the URL, or the operator fixes it.
   */
  readonly destination?: keyof z.input<C> & string;
  build(config: z.output<C>, event: NotificationEvent, ctx: BuildContext): OutgoingRequest | OutgoingRequest[];
}

export const defineChannel = <K extends string, C extends z.ZodObject>(channel: Channel<K, C>): Channel<K, C> => channel;

/** The operator's environment lacks something a channel needs; retrying will not help. */
export class NotifierSetupError extends Error {
  override name = "NotifierSetupError";
}

/** Returns an optional env variable or fails naming it. */
export function requireEnv<K extends keyof NotifierEnv>(env: NotifierEnv, key: K, kind: string): NonNullable<NotifierEnv[K]> {
  const value = env[key];
  if (value === undefined || value === null) throw new NotifierSetupError(`${key} is not set; the ${kind} channel needs it`);
  return value as NonNullable<NotifierEnv[K]>;
}
