import { describe, expect, it } from 'vitest';
import { ExchangeInfoCache } from './info-cache.ts';

describe('ExchangeInfoCache', () => {
  it('keeps one read for maxAgeMs of the given clock, shares it between callers, and reads afresh when asked', async () => {
    let now = 1_000;
    let reads = 0;
    const cache = new ExchangeInfoCache(() => Promise.resolve({ n: ++reads }), () => now, 3_600_000);
    const [a, b] = await Promise.all([cache.get(), cache.get()]);
    expect(a).toEqual({ n: 1 });
    expect(b).toBe(a);
    now += 3_599_999;
    expect(await cache.get()).toEqual({ n: 1 });
    now += 1;
    expect(await cache.get()).toEqual({ n: 2 });
    expect(await cache.get(true)).toEqual({ n: 3 });
    expect(await cache.get()).toEqual({ n: 3 });
  });

  it('does not keep a failed read: the next call reads again', async () => {
    let reads = 0;
    const cache = new ExchangeInfoCache(() => (++reads === 1 ? Promise.reject(new Error('venue down')) : Promise.resolve({ ok: true })), () => 0);
    await expect(cache.get()).rejects.toThrow('venue down');
    expect(await cache.get()).toEqual({ ok: true });
    expect(reads).toBe(2);
  });

  it('a seeded copy (the bot\'s start-up read) serves until maxAgeMs from when it was read', async () => {
    let now = 5_000;
    let reads = 0;
    const cache = new ExchangeInfoCache(() => Promise.resolve({ n: ++reads }), () => now, 60_000);
    cache.seed({ n: 0 }, 4_000);
    expect(await cache.get()).toEqual({ n: 0 });
    now = 63_999;
    expect(await cache.get()).toEqual({ n: 0 });
    now = 64_000;
    expect(await cache.get()).toEqual({ n: 1 });
    expect(reads).toBe(1);
  });
});
