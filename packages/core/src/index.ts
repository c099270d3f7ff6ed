// Every business rule on stored data, by domain; each folder's index.ts is its only public face.
export * from "./access";
export * from "./alerts";
export * from "./audit";
export * from "./errors";
export * from "./heartbeats";
export * from "./i18n";
export * from "./instance";
export * from "./measure";
export * from "./metrics";
export * from "./monitors";
export * from "./purge";
export * from "./rate-limits";
export * from "./secrets";
export * from "./sla";
export * from "./status";
