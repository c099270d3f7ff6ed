-- One row per check result: (monitor, slot, location) is its identity, as in libSQL's check_result.
-- Every read names a monitor (monitor ids are global), so the sort key starts with it; the workspace is a
-- column for retention. A result re-sent with the same key collapses at merge time and reads use FINAL.
CREATE TABLE IF NOT EXISTS {database}.check_results
(
    id String,
    workspace_id UInt32,
    monitor_id UInt32,
    location_id UInt32,
    region LowCardinality(String),
    cron_timestamp DateTime64(3, 'UTC'),
    started_at DateTime64(3, 'UTC'),
    status Enum8('success' = 1, 'degraded' = 2, 'error' = 3),
    latency_ms UInt32,
    status_code Nullable(UInt16),
    error_message Nullable(String),
    attempts UInt8 DEFAULT 1,
    timings Map(LowCardinality(String), Float64),
    inserted_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(inserted_at)
PARTITION BY toYYYYMM(cron_timestamp)
ORDER BY (monitor_id, cron_timestamp, location_id)
-- Remembers recent insert blocks: a batch re-sent after a lost acknowledgement is dropped whole, here and
-- in the views below (with deduplicate_blocks_in_dependent_materialized_views on the insert).
SETTINGS non_replicated_deduplication_window = 10000;

-- Hourly and daily series per monitor and location. Latencies are kept as an exact histogram (latency ms →
-- count, merged with sumMap), so percentiles read from the views are the same nearest-rank values as on raw rows.
CREATE TABLE IF NOT EXISTS {database}.check_results_hourly
(
    workspace_id UInt32,
    monitor_id UInt32,
    location_id UInt32,
    bucket DateTime('UTC'),
    total SimpleAggregateFunction(sum, UInt64),
    success SimpleAggregateFunction(sum, UInt64),
    degraded SimpleAggregateFunction(sum, UInt64),
    error SimpleAggregateFunction(sum, UInt64),
    latency AggregateFunction(sumMap, Array(UInt32), Array(UInt64))
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (monitor_id, bucket, location_id, workspace_id)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS {database}.check_results_hourly_mv TO {database}.check_results_hourly AS
SELECT
    workspace_id,
    monitor_id,
    location_id,
    toStartOfHour(cron_timestamp) AS bucket,
    count() AS total,
    countIf(status = 'success') AS success,
    countIf(status = 'degraded') AS degraded,
    countIf(status = 'error') AS error,
    sumMapState([latency_ms], [toUInt64(1)]) AS latency
FROM {database}.check_results
GROUP BY workspace_id, monitor_id, location_id, bucket;

CREATE TABLE IF NOT EXISTS {database}.check_results_daily
(
    workspace_id UInt32,
    monitor_id UInt32,
    location_id UInt32,
    bucket DateTime('UTC'),
    total SimpleAggregateFunction(sum, UInt64),
    success SimpleAggregateFunction(sum, UInt64),
    degraded SimpleAggregateFunction(sum, UInt64),
    error SimpleAggregateFunction(sum, UInt64),
    latency AggregateFunction(sumMap, Array(UInt32), Array(UInt64))
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (monitor_id, bucket, location_id, workspace_id)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS {database}.check_results_daily_mv TO {database}.check_results_daily AS
SELECT
    workspace_id,
    monitor_id,
    location_id,
    toStartOfDay(cron_timestamp) AS bucket,
    count() AS total,
    countIf(status = 'success') AS success,
    countIf(status = 'degraded') AS degraded,
    countIf(status = 'error') AS error,
    sumMapState([latency_ms], [toUInt64(1)]) AS latency
FROM {database}.check_results
GROUP BY workspace_id, monitor_id, location_id, bucket;
