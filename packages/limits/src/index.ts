export * from "./check";
export * from "./parse";
export * from "./schema";
