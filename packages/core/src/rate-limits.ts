import type { RateRule } from "@vigil/rate-limit";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Every rate rule of the product, in one place: what mails or messages one address, one client or one
 * workspace can cause. The client rules apply where the client address is known (see `clientAddress`).
 */
export const RATE_LIMITS = {
  signInPerAddress: { name: "signin-address", limit: 5, windowMs: HOUR, what: "sign-in e-mails for this address" },
  signInPerClient: { name: "signin-client", limit: 20, windowMs: HOUR, what: "sign-in e-mails from your network address" },
  subscribePerClient: { name: "subscribe-client", limit: 10, windowMs: HOUR, what: "subscriptions from your network address" },
  secondFactorPerUser: { name: "second-factor", limit: 10, windowMs: 15 * MINUTE, what: "second-factor codes for this account" },
  /** A crash-looping job is cut off, not stored thousands of times; a job pinging every second with starts fits. */
  heartbeatPing: { name: "ping", limit: 150, windowMs: MINUTE, what: "pings for this heartbeat" },
  /**
   * Pings to tokens that do not exist, per client (IPv6 per /64): each costs a database lookup. Past it the
   * client's every ping is refused for the window; other clients' pings, and valid ones, never count.
   */
  unknownPingPerClient: {
    name: "ping-unknown-client",
    limit: 30,
    windowMs: MINUTE,
    what: "pings to unknown heartbeats from your network address",
  },
  ackLinkPerClient: {
    name: "ack-link-client",
    limit: 30,
    windowMs: 10 * MINUTE,
    what: "acknowledge links opened from your network address",
  },
  channelTest: { name: "channel-test", limit: 10, windowMs: 10 * MINUTE, what: "test notifications for this workspace" },
} satisfies Record<string, RateRule>;

/** A pending subscription is mailed again (with a new link) at most this often. */
export const CONFIRM_RESEND_MS = 15 * MINUTE;
