// Status pages: pages and components, the public view, reports and maintenance, subscribers.
export { componentRow, newToken, pageRow, type StatusPageView } from "./common";
export type { DomainVerification } from "./domains";
export * from "./domains";
export * from "./pages";
export * from "./public";
export * from "./reports";
export * from "./subscriber-endpoints";
export * from "./subscribers";
export * from "./subscription";
