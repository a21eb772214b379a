import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../time/virtual-clock.ts';
import { ChargeExceedsLimitError } from '../../core/risk/weight-ledger.ts';
import { buildLedgerConfig, type RateLimitConfig } from './pool-config.ts';
import { BudgetWaitError, WeightBudget } from './weight-budget.ts';
import type { WeightCharge } from '../endpoints/types.ts';

const IP = (weight: number): WeightCharge[] => [{ pool: 'IP', weight }];

function setup(cfg: RateLimitConfig = {}) {
  const clock = new VirtualClock(0);
  const budget = new WeightBudget({ clock, config: buildLedgerConfig(cfg) });
  const granted: { label: string; at: number }[] = [];
  const track = (p: Promise<unknown>, label: string) => p.then(() => void granted.push({ label, at: clock.now() }));
  const settle = () => clock.advance(0);
  return { clock, budget, granted, track, settle };
}

describe('WeightBudget', () => {
  it('spreads a 2,000-request burst so no 60 s window holds more than 1,200', async () => {
    const { clock, budget, granted, track } = setup();
    const all = Array.from({ length: 2000 }, (_, i) => track(budget.acquire(IP(1)), String(i)));
    for (let step = 0; step < 400 && granted.length < 2000; step++) await clock.advance(1000);
    await Promise.all(all);
    expect(granted).toHaveLength(2000);
    const times = granted.map((g) => g.at).sort((a, b) => a - b);
    for (const start of times) expect(times.filter((t) => t >= start && t < start + 60_000).length).toBeLessThanOrEqual(1200);
    expect(times.at(-1)).toBe(60_000);
    expect(granted.map((g) => Number(g.label))).toEqual([...Array(2000).keys()]); // FIFO
    expect(clock.pending).toBe(0); // idle: no timer left
  });

  it('settle: a request answered late holds its weight a window from its answer, as the venue (counting on arrival) does', async () => {
    const { clock, budget, granted, track } = setup({ pools: { IP: { limit: 10, windowMs: 1000 } } });
    const booked = await budget.acquire(IP(10));
    await clock.advance(300); // the request's answer comes back 300 ms after it was booked
    budget.settle(booked);
    const next = track(budget.acquire(IP(10)), 'next');
    await clock.advance(700);
    expect(granted).toEqual([]); // booked + 1000 has passed, but not answered + 1000
    await clock.advance(300);
    await next;
    expect(granted).toEqual([{ label: 'next', at: 1300 }]);
  });

  it('charges several pools atomically', async () => {
    const { clock, budget, granted, track, settle } = setup({ pools: { ORDERS: { limit: 2, windowMs: 10_000 } } });
    const order = (): WeightCharge[] => [{ pool: 'IP', weight: 1 }, { pool: 'ORDERS', weight: 1 }];
    track(budget.acquire(order()), 'a');
    track(budget.acquire(order()), 'b');
    track(budget.acquire(order()), 'c');
    await settle();
    expect(granted.map((g) => g.label)).toEqual(['a', 'b']);
    expect(budget.snapshot().pools.find((p) => p.pool === 'IP')?.usage).toBe(2); // c booked nothing yet
    await clock.advance(9_999);
    expect(granted).toHaveLength(2);
    await clock.advance(1);
    expect(granted.at(-1)).toEqual({ label: 'c', at: 10_000 });
    expect(budget.snapshot().pools.find((p) => p.pool === 'IP')?.usage).toBe(3);
  });

  it('rejects a charge that could never pass instead of queueing it', async () => {
    const { budget } = setup({ reservations: { cancels: { IP: 200 } } });
    await expect(budget.acquire(IP(1201), { consumer: 'cancels' })).rejects.toBeInstanceOf(ChargeExceedsLimitError);
    await expect(budget.acquire(IP(1001))).rejects.toThrow(/at most 1000/);
    expect(budget.snapshot().queued).toBe(0);
  });

  it('serves FIFO: a waiting big request blocks later small ones on the same pool', async () => {
    const { clock, budget, granted, track, settle } = setup({ pools: { IP: { limit: 10, windowMs: 60_000 } } });
    track(budget.acquire(IP(8)), 'first');
    track(budget.acquire(IP(10)), 'big');
    track(budget.acquire(IP(1)), 'small'); // would fit now, but must not overtake
    track(budget.acquire([{ pool: 'UID', weight: 1 }]), 'other-pool'); // a different pool is not blocked
    await settle();
    expect(granted.map((g) => g.label)).toEqual(['first', 'other-pool']);
    await clock.advance(60_000);
    expect(granted.slice(2)).toEqual([{ label: 'big', at: 60_000 }]);
    await clock.advance(60_000);
    expect(granted.slice(3)).toEqual([{ label: 'small', at: 120_000 }]);
    expect(clock.pending).toBe(0);
  });

  it('lets an aborted waiter go and unblocks the ones behind it', async () => {
    const { clock, budget, granted, track, settle } = setup({ pools: { IP: { limit: 10, windowMs: 60_000 } } });
    await budget.acquire(IP(8));
    const ctrl = new AbortController();
    const big = budget.acquire(IP(10), { signal: ctrl.signal });
    track(budget.acquire(IP(2)), 'small');
    await settle();
    expect(granted).toHaveLength(0);
    ctrl.abort(new Error('gave up'));
    await expect(big).rejects.toThrow('gave up');
    await settle();
    expect(granted).toEqual([{ label: 'small', at: 0 }]);
    expect(clock.pending).toBe(0);
  });

  it('keeps a reservation for its consumer against a greedy one', async () => {
    const { clock, budget, granted, track, settle } = setup({
      pools: { IP: { limit: 100, windowMs: 60_000 } },
      reservations: { cancels: { IP: 20 } },
    });
    for (let i = 0; i < 200; i++) track(budget.acquire(IP(1), { consumer: 'greedy' }), 'greedy');
    await settle();
    expect(granted).toHaveLength(80);
    track(budget.acquire(IP(5), { consumer: 'cancels' }), 'cancel'); // passes the blocked shared queue
    await settle();
    expect(granted.at(-1)).toEqual({ label: 'cancel', at: 0 });
    // beyond its reservation it needs the shared part, and queues behind the greedy waiters there
    track(budget.acquire(IP(25), { consumer: 'cancels' }), 'overflow');
    await settle();
    expect(granted.at(-1)?.label).toBe('cancel');
    await clock.advance(60_000);
    expect(granted.filter((g) => g.label === 'greedy')).toHaveLength(160);
    expect(granted.some((g) => g.label === 'overflow')).toBe(false);
    await clock.advance(60_000);
    expect(granted.filter((g) => g.label === 'greedy')).toHaveLength(200);
    expect(granted.find((g) => g.label === 'overflow')?.at).toBe(120_000);
  });

  it('pauses every caller until Retry-After on 429, and on 418', async () => {
    const { clock, budget, granted, track, settle } = setup();
    budget.onRateLimited({ status: 429, retryAfterMs: 5_000 });
    expect(budget.pausedUntil).toBe(5_000);
    track(budget.acquire(IP(1)), 'a');
    track(budget.acquire([{ pool: 'UID', weight: 1 }], { consumer: 'x' }), 'b');
    await clock.advance(4_999);
    expect(granted).toHaveLength(0);
    await clock.advance(1);
    expect(granted).toEqual([{ label: 'a', at: 5_000 }, { label: 'b', at: 5_000 }]);

    budget.onRateLimited({ status: 418, retryAfterMs: 120_000 });
    track(budget.acquire(IP(1)), 'c');
    await clock.advance(119_999);
    expect(granted).toHaveLength(2);
    await clock.advance(1);
    expect(granted.at(-1)).toEqual({ label: 'c', at: 125_000 });
    expect(budget.snapshot().lastRateLimit).toMatchObject({ status: 418, at: 5_000 });
    // a shorter Retry-After never shortens a longer pause
    budget.onRateLimited({ status: 418, retryAfterMs: 10_000 });
    budget.onRateLimited({ status: 429, retryAfterMs: 1_000 });
    expect(budget.pausedUntil).toBe(135_000);
    await settle();
    expect(clock.pending).toBe(0);
  });

  it('backs off exponentially on order-rate 429s without Retry-After, capped, reset after a quiet window', async () => {
    const { clock, budget, granted, track } = setup();
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const start = clock.now();
      budget.onRateLimited({ status: 429, orderRate: true });
      // a second 429 from a request already in flight does not escalate
      budget.onRateLimited({ status: 429, orderRate: true });
      waits.push(budget.pausedUntil - start);
      const p = track(budget.acquire(IP(1)), String(i));
      while (granted.length <= i) await clock.advance(100);
      await p;
      expect(granted[i]!.at).toBe(budget.pausedUntil);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
    expect(budget.snapshot().backoffStep).toBe(8);
    await clock.advance(60_000); // a full quiet window
    const start = clock.now();
    budget.onRateLimited({ status: 429, orderRate: true });
    expect(budget.pausedUntil - start).toBe(1_000);
  });

  it('rejects at once a waiter whose deadline comes before the pause ends, keeping the others', async () => {
    const { clock, budget, granted, track, settle } = setup();
    budget.onRateLimited({ status: 418, retryAfterMs: 2_000 });
    const short = budget.acquire(IP(1), { maxWaitMs: 500 }).catch((e: unknown) => e);
    track(budget.acquire(IP(1), { maxWaitMs: 2_000 }), 'patient');
    await settle();
    const error = (await short) as BudgetWaitError;
    expect(error).toBeInstanceOf(BudgetWaitError);
    expect(error).toMatchObject({ reason: 'paused', banned: true, until: 2_000, maxWaitMs: 500, waitedMs: 0 });
    expect(error.message).toBe('the IP is banned (418) until 1970-01-01T00:00:02.000Z: not granted within 500 ms; nothing was sent');
    expect(budget.snapshot().pools.find((p) => p.pool === 'IP')?.usage).toBe(0);
    await clock.advance(2_000);
    expect(granted).toEqual([{ label: 'patient', at: 2_000 }]);
    expect(budget.snapshot().pauseCause).toBe(418);
  });

  it('rejects a waiter when the pools have no room within its deadline, and lets the ones behind it through', async () => {
    const { clock, budget, granted, track, settle } = setup({ pools: { IP: { limit: 10, windowMs: 60_000 } } });
    track(budget.acquire(IP(10)), 'first');
    await settle();
    // Its own charge cannot fit for 60 s: rejected now, not after waiting.
    await expect(budget.acquire(IP(5), { maxWaitMs: 1_000 })).rejects.toMatchObject({ reason: 'capacity', until: 60_000 });
    // Queued behind a blocked big one: rejected when its deadline passes.
    track(budget.acquire(IP(10), { maxWaitMs: 70_000 }), 'big');
    const behind = budget.acquire([{ pool: 'IP', weight: 1 }], { maxWaitMs: 3_000 }).catch((e: unknown) => e);
    await clock.advance(2_999);
    expect(budget.snapshot().queued).toBe(2);
    await clock.advance(1);
    expect(await behind).toMatchObject({ name: 'BudgetWaitError', reason: 'capacity', waitedMs: 3_000 });
    await clock.advance(57_000);
    expect(granted.map((g) => [g.label, g.at])).toEqual([
      ['first', 0],
      ['big', 60_000],
    ]);
    expect(clock.pending).toBe(0);
  });
});
