import { describe, expect, it } from 'vitest';
import { SandboxRateLimiter, type RateLimitSettings } from './rate-limiter.ts';

const MIN = 60_000;
const settings = (over: Partial<RateLimitSettings> = {}): RateLimitSettings => ({
  pools: { IP: { limit: 5, windowMs: MIN }, UID: { limit: 3, windowMs: MIN }, ORDERS: { limit: 2, windowMs: 10_000 } },
  strikesBeforeBan: 2,
  strikeGraceMs: 0,
  banScheduleMs: [2 * MIN, 10 * MIN, 3 * 24 * 60 * MIN],
  offenceMemoryMs: 24 * 60 * MIN,
  ...over,
});
const ip1 = [{ pool: 'IP' as const, weight: 1 }];

describe('SandboxRateLimiter', () => {
  it('answers 429 with Retry-After when the IP pool is spent', () => {
    const rl = new SandboxRateLimiter(settings());
    for (let i = 0; i < 5; i++) expect(rl.admit('a', undefined, ip1, i * 1000).ok).toBe(true);
    const v = rl.admit('a', undefined, ip1, 5000);
    expect(v).toMatchObject({ ok: false, status: 429, code: -1003, retryAfterSeconds: 55 });
    expect(v.ok || v.msg).toBe('Too many requests; current limit is 5 requests per minute.');
    // Another IP is unaffected (spec 8.2).
    expect(rl.admit('b', undefined, ip1, 5000).ok).toBe(true);
    // After the wait, it fits again.
    expect(rl.admit('a', undefined, ip1, 60_001).ok).toBe(true);
  });

  it('bans with 418 after repeated requests during back-off, escalating per offence', () => {
    const rl = new SandboxRateLimiter(settings());
    const hammer = (start: number) => {
      const out = [];
      for (let i = 0; i < 8; i++) out.push(rl.admit('a', undefined, [{ pool: 'IP', weight: 1 }], start + i));
      return out;
    };
    const first = hammer(0);
    expect(first.slice(0, 5).every((v) => v.ok)).toBe(true);
    expect(first[5]).toMatchObject({ status: 429 });
    expect(first[6]).toMatchObject({ status: 429 });
    expect(first[7]).toMatchObject({ status: 418, retryAfterSeconds: 120 });
    expect(rl.admit('a', undefined, ip1, 60_000)).toMatchObject({ status: 418, retryAfterSeconds: 61 });
    const second = hammer(10 * MIN);
    expect(second.at(-1)).toMatchObject({ status: 418, retryAfterSeconds: 600 });
  });

  it('does not count as strikes the requests of the first strikeGraceMs after a 429 (already in flight), only those after', () => {
    const rl = new SandboxRateLimiter(settings({ strikeGraceMs: 1000 }));
    for (let i = 0; i < 5; i++) expect(rl.admit('a', undefined, ip1, i).ok).toBe(true);
    expect(rl.admit('a', undefined, ip1, 10)).toMatchObject({ status: 429 });
    // Ten more within the second after the 429: each answered 429, none a strike.
    for (let t = 11; t < 1010; t += 100) expect(rl.admit('a', undefined, ip1, t)).toMatchObject({ status: 429 });
    // After the grace, a client that keeps sending is banned as before.
    expect(rl.admit('a', undefined, ip1, 1010)).toMatchObject({ status: 429 });
    expect(rl.admit('a', undefined, ip1, 1011)).toMatchObject({ status: 418 });
  });

  it('counts UID weight per UID, and falls back to the IP pool without one', () => {
    const rl = new SandboxRateLimiter(settings());
    const uid2 = [{ pool: 'UID' as const, weight: 2 }];
    expect(rl.admit('a', 'u1', uid2, 0).ok).toBe(true);
    expect(rl.admit('a', 'u1', uid2, 1)).toMatchObject({ status: 429, msg: 'Too many requests; current UID limit is 3 requests per minute.' });
    expect(rl.admit('b', 'u2', uid2, 2).ok).toBe(true);
    expect(rl.admit('c', undefined, uid2, 3).ok).toBe(true);
    expect(rl.admit('c', undefined, [{ pool: 'IP', weight: 4 }], 4)).toMatchObject({ status: 429 });
  });

  it('answers the order-rate limit with 429 -1015 and no Retry-After', () => {
    const rl = new SandboxRateLimiter(settings({ pools: { IP: { limit: 100, windowMs: MIN }, UID: { limit: 100, windowMs: MIN }, ORDERS: { limit: 2, windowMs: 10_000 } } }));
    const order = [{ pool: 'IP' as const, weight: 1 }, { pool: 'ORDERS' as const, weight: 1 }];
    expect(rl.admit('a', 'u', order, 0).ok).toBe(true);
    expect(rl.admit('a', 'u', order, 1).ok).toBe(true);
    const v = rl.admit('a', 'u', order, 2);
    expect(v).toEqual({ ok: false, status: 429, code: -1015, msg: 'Too many new orders; current limit is 2 orders per 10 seconds.' });
    // No back-off state: plain requests still pass.
    expect(rl.admit('a', 'u', ip1, 3).ok).toBe(true);
    expect(rl.admit('a', 'u', order, 10_001).ok).toBe(true);
  });
});
