// Prometheus: the workspace's monitors as scrapeable series.
export { LATENCY_BUCKETS_MS, MAX_TAG_LABELS, parseTagLabels, prometheusMetrics } from "./scrape";
