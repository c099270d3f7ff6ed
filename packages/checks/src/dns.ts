// Resolving and checking live in @vigil/egress, shared with the notifier and the probe's OTLP export.
export { allowedAddresses, DnsLookupError, fixedLookup, formatTarget, resolveHost } from "@vigil/egress";
