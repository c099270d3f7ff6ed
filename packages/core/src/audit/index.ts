// The audit log: what every change records, and how the dashboard lists and searches it.
export * from "./log";
export * from "./search";
