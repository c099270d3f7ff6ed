// What other packages may import without the runners (no sockets, no undici): zod schemas and the kind registry.
export * from "./assertions/schema";
export {
  HeaderMap,
  HeaderName,
  httpUrl,
  isSecretHeader,
  isSecretQueryKey,
  keepSecret,
  keepStored,
  originOf,
  REDACTED,
  redactUrl,
  replaceUrlSecrets,
  type SecretDestination,
  SecretNotKeptError,
  type UrlSecret,
} from "./fields";
export * from "./kinds";
export * from "./schema";
