export { DnsLookupError, fixedLookup, formatTarget, resolveHost } from "./dns";
export { allowedAddresses, egressDispatcher, egressHttpAgent } from "./http";
export {
  DenyListError,
  type DenyRule,
  EgressPolicy,
  EgressRefusedError,
  type InstanceEndpoint,
  type InstanceUrls,
  instanceEndpoints,
  parseDenyList,
  parseInstanceUrls,
} from "./policy";
