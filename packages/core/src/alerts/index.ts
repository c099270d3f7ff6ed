// From results to alerts: status evaluation, notification channels, deliveries and channel tests; reminders,
// escalation, acknowledgements and dependencies.
export * from "./acknowledge";
export * from "./channel-test";
export * from "./channels";
export * from "./deliveries";
export * from "./delivery-attempts";
export * from "./delivery-context";
export { dependenciesOf, dependentsOf, HOLD_GRACE_MS, heldAlert, parentsDown } from "./dependencies";
export { type Dispatched, dispatchEvents, type Route, routeAlert } from "./dispatch";
export * from "./escalation";
export * from "./evaluate";
export { planFollowUps, type TimerSend } from "./follow-ups";
export { type AskCheck, FRESH_GRACE_MS, recordFreshCheck } from "./fresh-checks";
export { type AlertLinks, alertLinksFor, storeAlertLinks } from "./monitor-links";
export { dropStaleFollowUp, fireDueTimers, pendingTimers, timerOf } from "./timers";
