// Prometheus: the workspace's monitors as scrapeable series.
export { LATENCY_BUCKETS_MS, MAX_TAG_LABELS, PieceBuffers, parseTagLabels, prometheusMetrics } from "./scrape";
