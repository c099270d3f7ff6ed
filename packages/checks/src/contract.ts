// What other packages may import without the runners (no sockets, no undici): zod schemas and the kind registry.
export * from "./assertions/schema";
export {
  HeaderMap,
  HeaderName,
  httpUrl,
  isSecretHeader,
  keepSecret,
  keepStored,
  originOf,
  REDACTED,
  type SecretDestination,
  SecretNotKeptError,
} from "./fields";
export * from "./kinds";
export * from "./schema";
