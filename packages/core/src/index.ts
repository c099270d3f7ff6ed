export * from "./api-keys";
export * from "./audit";
export * from "./errors";
export * from "./ingest";
export * from "./monitors";
export * from "./private-locations";
export * from "./secrets";
export * from "./workspace";
