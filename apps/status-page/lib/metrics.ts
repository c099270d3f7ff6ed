/** A few counters in Prometheus text format; the status page has no other state worth exporting. */
const requests = new Map<string, number>();
const durations = new Map<string, { sum: number; count: number }>();
const started = Date.now();

export function countRequest(route: string, status: number, ms?: number) {
  const key = `route="${route}",status="${status}"`;
  requests.set(key, (requests.get(key) ?? 0) + 1);
  if (ms !== undefined) {
    const d = durations.get(route) ?? { sum: 0, count: 0 };
    d.sum += ms / 1000;
    d.count++;
    durations.set(route, d);
  }
}

export function metricsText(): string {
  const mem = process.memoryUsage();
  const lines = [
    "# HELP status_page_requests_total Requests answered, by route and status.",
    "# TYPE status_page_requests_total counter",
    ...[...requests].map(([k, v]) => `status_page_requests_total{${k}} ${v}`),
    "# HELP status_page_render_seconds Time to build a response, by route.",
    "# TYPE status_page_render_seconds summary",
    ...[...durations].flatMap(([route, d]) => [
      `status_page_render_seconds_sum{route="${route}"} ${d.sum}`,
      `status_page_render_seconds_count{route="${route}"} ${d.count}`,
    ]),
    "# HELP process_resident_memory_bytes Resident memory size in bytes.",
    "# TYPE process_resident_memory_bytes gauge",
    `process_resident_memory_bytes ${mem.rss}`,
    "# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.",
    "# TYPE process_start_time_seconds gauge",
    `process_start_time_seconds ${Math.floor(started / 1000)}`,
    "",
  ];
  return lines.join("\n");
}
