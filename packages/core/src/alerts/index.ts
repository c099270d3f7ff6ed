// From results to alerts: status evaluation, notification channels, deliveries and channel tests.
export * from "./channel-test";
export * from "./channels";
export * from "./deliveries";
export * from "./delivery-attempts";
export * from "./delivery-context";
export * from "./evaluate";
