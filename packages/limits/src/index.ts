export * from "./check";
export * from "./explain";
export * from "./parse";
export * from "./schema";
