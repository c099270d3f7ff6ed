// Heartbeat monitors: pings in (server), deadlines and statuses (workflows), what the owner sees (dashboard, API).
export {
  combineReceivers,
  deadlineOf,
  decideHeartbeat,
  evaluateHeartbeats,
  type HeartbeatDecision,
  type HeartbeatState,
  nextHeartbeatDeadline,
  PINGS_KEPT,
  RECEIVER_STALE_MS,
  type Receiver,
} from "./deadlines";
export { type HeartbeatDetails, heartbeatDetails, heartbeatGlance, type PingLogEntry, rotatePingToken } from "./details";
export {
  AUTO_CREATED_REQUEST,
  heartbeatBySlug,
  PING_KEY_RE,
  type PingKeySettings,
  pingKeySettings,
  rotatePingKey,
  setPingAutoCreate,
} from "./ping-key";
export {
  ensureHeartbeatRow,
  MAX_PING_BODY_BYTES,
  markReceiverAlive,
  PING_TOKEN_RE,
  type Ping,
  type PingSignal,
  PingWriter,
  recordPing,
  recordPings,
} from "./pings";
