import { describe, expect, it } from 'vitest';
import { MAX_BAN_MS, MIN_BAN_MS, RateLimitPause } from './rate-limit-pause.ts';

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

  it('floors a 429 Retry-After of 0 at 1 s: no back-to-back requests', () => {
    const p = new RateLimitPause();
    expect(p.note({ status: 429, retryAfterMs: 0 }, 10_000)).toBe(11_000);
    expect(p.pauseCause).toBe(429);
  });

  it('a 418 without Retry-After pauses the 2-minute minimum ban, doubling per ban up to 3 days (spec 8.5)', () => {
    const p = new RateLimitPause();
    let now = 0;
    const waits: number[] = [];
    for (let i = 0; i < 13; i++) {
      const until = p.note({ status: 418 }, now);
      expect(p.note({ status: 418 }, now + 5)).toBe(until); // a straggler from before the ban
      expect(p.pauseCause).toBe(418);
      waits.push(until - now);
      now = until + 60_000; // banned again soon after
    }
    expect(waits.slice(0, 5)).toEqual([MIN_BAN_MS, 2 * MIN_BAN_MS, 4 * MIN_BAN_MS, 8 * MIN_BAN_MS, 16 * MIN_BAN_MS]);
    expect(waits.at(-1)).toBe(MAX_BAN_MS);
    expect(p.banStep).toBe(13);
    // A quiet day resets the doubling.
    now += 24 * 60 * 60_000;
    expect(p.note({ status: 418, retryAfterMs: 0 }, now) - now).toBe(MIN_BAN_MS);
  });

  it('a 418 with a Retry-After of at least 1 s is taken as given; a 429 without one is no ban', () => {
    const p = new RateLimitPause();
    expect(p.note({ status: 418, retryAfterMs: 2_000 }, 0)).toBe(2_000);
    expect(p.banStep).toBe(0);
    expect(p.note({ status: 429 }, 5_000)).toBe(6_000);
    expect(p.pauseCause).toBe(429);
  });
});
