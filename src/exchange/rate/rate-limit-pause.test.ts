import { describe, expect, it } from 'vitest';
import { RateLimitPause } from './rate-limit-pause.ts';

describe('RateLimitPause', () => {
  it('honours Retry-After and never shortens a longer pause', () => {
    const p = new RateLimitPause();
    expect(p.note({ status: 418, retryAfterMs: 120_000 }, 1_000)).toBe(121_000);
    expect(p.note({ status: 429, retryAfterMs: 5_000 }, 2_000)).toBe(121_000);
    expect(p.lastNotice).toEqual({ status: 429, retryAfterMs: 5_000, at: 2_000 });
  });

  it('doubles the order-rate back-off up to the cap, ignores repeats inside one back-off, resets after a quiet window', () => {
    const p = new RateLimitPause({ baseBackoffMs: 1_000, maxBackoffMs: 8_000, backoffResetMs: 30_000 });
    let now = 0;
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const until = p.note({ status: 429, orderRate: true }, now);
      expect(p.note({ status: 429, orderRate: true }, now + 1)).toBe(until); // in-flight straggler
      waits.push(until - now);
      now = until + 29_999; // not quite a quiet window
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    now += 1; // now a full quiet window after the last back-off ended
    expect(p.note({ status: 429 }, now) - now).toBe(1_000);
    expect(p.backoffStep).toBe(1);
  });
});
