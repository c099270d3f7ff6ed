export * from "./common";
