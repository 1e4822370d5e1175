import { describe, expect, it } from 'vitest';
import { createHttpSeries } from './http-series';
import { parseExposition } from '../../test/prometheus';

describe('the HTTP series', () => {
  it('writes cumulative buckets, sum and count per method and route, and counts per status', () => {
    const series = createHttpSeries();
    for (const seconds of [0.001, 0.003, 0.2, 7, 500]) series.observe('GET', '/api/images/:id/thumbnail', 200, seconds);
    series.observe('GET', '/api/images/:id/thumbnail', 304, 0.004);
    series.observe('POST', '/api/orders', 201, 0.3);
    const metrics = parseExposition(series.exposition());
    const images = { method: 'GET', route: '/api/images/:id/thumbnail' };
    expect(metrics.sum('http_requests_total', { ...images, status: '200' })).toBe(5);
    expect(metrics.sum('http_requests_total', { ...images, status: '304' })).toBe(1);
    expect(metrics.sum('http_request_duration_seconds_bucket', { ...images, le: '0.005' })).toBe(3);
    expect(metrics.sum('http_request_duration_seconds_bucket', { ...images, le: '0.25' })).toBe(4);
    expect(metrics.sum('http_request_duration_seconds_bucket', { ...images, le: '120' })).toBe(5);
    expect(metrics.sum('http_request_duration_seconds_bucket', { ...images, le: '+Inf' })).toBe(6);
    expect(metrics.sum('http_request_duration_seconds_count', images)).toBe(6);
    expect(metrics.sum('http_request_duration_seconds_sum', images)).toBeCloseTo(507.208, 6);
    expect(metrics.sum('http_request_duration_seconds_count', { method: 'POST', route: '/api/orders' })).toBe(1);
  });

  it('escapes label values as the text format wants', () => {
    const series = createHttpSeries();
    series.observe('GET', 'a"b\\c\nd', 200, 0.01);
    expect(parseExposition(series.exposition()).sum('http_requests_total', { route: 'a"b\\c\nd' })).toBe(1);
  });
});
