import { describe, expect, it } from 'vitest';
import { DEFAULT_STREAM_TIMINGS, streamTimings } from './stream-timings.ts';

describe('stream timings (notes 1)', () => {
  it('defaults: ping every 3 minutes, planned reconnect at 23 h 50 min', () => {
    expect(streamTimings()).toEqual(DEFAULT_STREAM_TIMINGS);
    expect(DEFAULT_STREAM_TIMINGS.pingIntervalMs).toBe(180_000);
    expect(DEFAULT_STREAM_TIMINGS.maxLifetimeMs).toBe(85_800_000);
    expect(streamTimings({ backoff: { maxMs: 5000 } }).backoff).toEqual({ baseMs: 1000, maxMs: 5000 });
  });

  it('refuses nonsense with the field name', () => {
    expect(() => streamTimings({ pingIntervalMs: 0 })).toThrow('stream timings: pingIntervalMs must be a positive number of ms, got 0');
    expect(() => streamTimings({ backoff: { baseMs: 10, maxMs: 5 } })).toThrow('stream timings: backoff.maxMs (5) is below backoff.baseMs (10)');
  });
});
