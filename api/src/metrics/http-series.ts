/**
 * The two HTTP families (requests by method, route and status; the latency histogram by method
 * and route), kept in plain numbers rather than prom-client's metrics: a request then costs two
 * map lookups and a few additions, with nothing allocated once its series exists, where
 * prom-client hashes its labels into a new string at every increment. They are written in the
 * text format at each scrape (docs/operations.md, "Metrics").
 */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

interface Series {
  /** Observations per bucket (not cumulative), the last one past the largest bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
  statuses: Map<number, number>;
}

/** A label value as the text format wants it. */
const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export function createHttpSeries() {
  const byRoute = new Map<string, Map<string, Series>>();

  return {
    observe(method: string, route: string, status: number, seconds: number): void {
      let byMethod = byRoute.get(route);
      if (!byMethod) byRoute.set(route, (byMethod = new Map()));
      let series = byMethod.get(method);
      if (!series) byMethod.set(method, (series = { buckets: new Float64Array(BUCKETS.length + 1), sum: 0, count: 0, statuses: new Map() }));
      let i = 0;
      while (i < BUCKETS.length && seconds > (BUCKETS[i] as number)) i++;
      series.buckets[i] = (series.buckets[i] as number) + 1;
      series.sum += seconds;
      series.count += 1;
      series.statuses.set(status, (series.statuses.get(status) ?? 0) + 1);
    },

    exposition(): string {
      const requests = [
        '# HELP http_requests_total HTTP requests answered, by method, route template and status.',
        '# TYPE http_requests_total counter',
      ];
      const durations = [
        '# HELP http_request_duration_seconds Time from a request arriving to its answer being ready (a streamed body not included), by method and route template.',
        '# TYPE http_request_duration_seconds histogram',
      ];
      for (const [route, byMethod] of byRoute) {
        for (const [method, series] of byMethod) {
          const labels = `method="${escapeLabel(method)}",route="${escapeLabel(route)}"`;
          for (const [status, count] of series.statuses) requests.push(`http_requests_total{${labels},status="${status}"} ${count}`);
          let cumulative = 0;
          BUCKETS.forEach((bound, i) => {
            cumulative += series.buckets[i] as number;
            durations.push(`http_request_duration_seconds_bucket{${labels},le="${bound}"} ${cumulative}`);
          });
          durations.push(`http_request_duration_seconds_bucket{${labels},le="+Inf"} ${series.count}`);
          durations.push(`http_request_duration_seconds_sum{${labels}} ${series.sum}`);
          durations.push(`http_request_duration_seconds_count{${labels}} ${series.count}`);
        }
      }
      return `${requests.join('\n')}\n${durations.join('\n')}\n`;
    },
  };
}
