// The database schema, one file per domain; drizzle-kit reads the tables from here (drizzle.config.ts).

export * from "./alerts";
export * from "./audit";
export * from "./heartbeats";
export * from "./instance";
export * from "./metrics";
export * from "./monitors";
export * from "./status-pages";
export * from "./workspace";
