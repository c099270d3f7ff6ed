export { DnsLookupError, fixedLookup, formatTarget, resolveHost } from "./dns";
export { allowedAddresses, egressDispatcher, egressHttpAgent } from "./http";
export {
  blockList,
  DenyListError,
  type DenyRule,
  EgressPolicy,
  EgressRefusedError,
  type InstanceEndpoint,
  type InstanceUrls,
  instanceEndpoints,
  type PublicOnly,
  parseDenyList,
  parseInstanceUrls,
} from "./policy";
