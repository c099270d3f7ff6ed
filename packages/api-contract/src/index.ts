export * from "./alerts";
export * from "./check";
export * from "./common";
export * from "./entry-keys";
export * from "./monitor";
export * from "./probe";
export * from "./rest";
export * from "./status-pages";
