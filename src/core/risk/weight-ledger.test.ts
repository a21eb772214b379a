import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ChargeExceedsLimitError, WeightLedger, type PoolName } from './weight-ledger.ts';

const pools = (ip = 10, windowMs = 1000) => [
  { name: 'IP' as const, limit: ip, windowMs },
  { name: 'UID' as const, limit: 5, windowMs },
  { name: 'ORDERS' as const, limit: 2, windowMs: 500 },
];

describe('WeightLedger', () => {
  it('meters a sliding window and says how long to wait', () => {
    const l = new WeightLedger({ pools: pools() });
    expect(l.tryCharge([{ pool: 'IP', weight: 6 }], 0)).toMatchObject({ ok: true });
    expect(l.tryCharge([{ pool: 'IP', weight: 4 }], 500)).toMatchObject({ ok: true });
    expect(l.tryCharge([{ pool: 'IP', weight: 1 }], 600)).toEqual({ ok: false, waitMs: 400, pool: 'IP' });
    // 5 more need the t=500 entry to leave as well
    expect(l.tryCharge([{ pool: 'IP', weight: 7 }], 600)).toEqual({ ok: false, waitMs: 900, pool: 'IP' });
    expect(l.usage('IP', 999)).toBe(10);
    expect(l.usage('IP', 1000)).toBe(4);
    expect(l.capacity('IP', 1000)).toBe(6);
    expect(l.tryCharge([{ pool: 'IP', weight: 6 }], 1000)).toMatchObject({ ok: true });
  });

  it('charges several pools all or nothing', () => {
    const l = new WeightLedger({ pools: pools() });
    expect(l.tryCharge([{ pool: 'UID', weight: 5 }], 0).ok).toBe(true);
    const r = l.tryCharge([{ pool: 'IP', weight: 3 }, { pool: 'UID', weight: 1 }], 100);
    expect(r).toEqual({ ok: false, waitMs: 900, pool: 'UID' });
    expect(l.usage('IP', 100)).toBe(0); // the IP part was not booked
    // the reported wait is the longest over the failing pools
    l.tryCharge([{ pool: 'ORDERS', weight: 2 }], 100);
    expect(l.tryCharge([{ pool: 'ORDERS', weight: 1 }, { pool: 'UID', weight: 1 }], 200)).toMatchObject({ waitMs: 800, pool: 'UID' });
    expect(l.tryCharge([{ pool: 'IP', weight: 3 }, { pool: 'UID', weight: 1 }], 1000).ok).toBe(true);
    expect(l.usage('IP', 1000)).toBe(3);
  });

  it('merges repeated pools in one call', () => {
    const l = new WeightLedger({ pools: pools() });
    expect(l.tryCharge([{ pool: 'IP', weight: 3 }, { pool: 'IP', weight: 3 }], 0).ok).toBe(true);
    expect(l.usage('IP', 0)).toBe(6);
    expect(l.tryCharge([{ pool: 'IP', weight: 3 }, { pool: 'IP', weight: 2 }], 0)).toMatchObject({ ok: false, pool: 'IP' });
    expect(() => l.tryCharge([{ pool: 'UID', weight: 3 }, { pool: 'UID', weight: 3 }], 0)).toThrow(ChargeExceedsLimitError);
  });

  it('rejects up front a charge that could never pass', () => {
    const l = new WeightLedger({ pools: pools(100), reservations: { cancels: { IP: 20 } } });
    expect(() => l.tryCharge([{ pool: 'IP', weight: 101 }], 0, 'cancels')).toThrow(/can never pass/);
    // shared callers only ever see limit - reservations
    const err = (() => {
      try {
        l.validate([{ pool: 'IP', weight: 81 }]);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ChargeExceedsLimitError);
    expect(err).toMatchObject({ code: 'CHARGE_EXCEEDS_LIMIT', pool: 'IP', weight: 81, max: 80 });
    expect(() => l.validate([{ pool: 'IP', weight: 100 }], 'cancels')).not.toThrow();
    expect(() => l.validate([{ pool: 'IP', weight: -1 }])).toThrow(RangeError);
    expect(() => new WeightLedger({ pools: [pools()[0]!] }).validate([{ pool: 'UID', weight: 1 }])).toThrow(/not configured/);
    expect(() => new WeightLedger({ pools: pools(10), reservations: { a: { IP: 6 }, b: { IP: 5 } } })).toThrow(/exceed/);
  });

  it('keeps a reservation for its consumer, who draws from it first, then from the shared part', () => {
    const l = new WeightLedger({ pools: pools(100), reservations: { cancels: { IP: 20 } } });
    for (let i = 0; i < 80; i++) expect(l.tryCharge([{ pool: 'IP', weight: 1 }], i, 'greedy').ok).toBe(true);
    expect(l.tryCharge([{ pool: 'IP', weight: 1 }], 80, 'greedy')).toEqual({ ok: false, waitMs: 920, pool: 'IP' });
    expect(l.capacity('IP', 80)).toBe(0);
    expect(l.capacity('IP', 80, 'cancels')).toBe(20);
    expect(l.tryCharge([{ pool: 'IP', weight: 15 }], 80, 'cancels').ok).toBe(true);
    expect(l.tryCharge([{ pool: 'IP', weight: 6 }], 81, 'cancels')).toEqual({ ok: false, waitMs: 919, pool: 'IP' });
    // at t=1000 the first greedy charge leaves: the shared part has 1 free; cancels has 5 + 1
    expect(l.tryCharge([{ pool: 'IP', weight: 6 }], 1000, 'cancels').ok).toBe(true);
    expect(l.usage('IP', 1000)).toBe(100);
    // reservedOnly: the shared part is off limits, the reservation alone cannot fit 1 more
    expect(l.tryCharge([{ pool: 'IP', weight: 1 }], 1079, 'cancels', { reservedOnly: ['IP'] })).toMatchObject({ ok: false, waitMs: 1 });
  });

  it('restamp: a charge counts from when its answer came back, so it stays as long as the venue (which counted it on arrival) holds it', () => {
    const l = new WeightLedger({ pools: pools(10, 1000) });
    const a = l.tryCharge([{ pool: 'IP', weight: 6 }], 0);
    if (!a.ok) throw new Error('refused');
    expect(l.tryCharge([{ pool: 'IP', weight: 4 }], 10).ok).toBe(true);
    l.restamp(a.receipt, 30); // answered at 30: the venue saw it somewhere in 0..30
    expect(l.usage('IP', 30)).toBe(10); // moved, not added
    expect(l.usage('IP', 1015)).toBe(6); // the t=10 charge left; the first stays until 1030
    expect(l.tryCharge([{ pool: 'IP', weight: 5 }], 1015)).toEqual({ ok: false, waitMs: 15, pool: 'IP' });
    expect(l.usage('IP', 1030)).toBe(0);
    // A charge whose answer came after it had left the window comes back into it.
    const b = l.tryCharge([{ pool: 'IP', weight: 3 }], 2000);
    if (!b.ok) throw new Error('refused');
    l.restamp(b.receipt, 3500);
    expect(l.usage('IP', 3500)).toBe(3);
    expect(l.usage('IP', 4500)).toBe(0);
    // Reservations move with it.
    const r = new WeightLedger({ pools: pools(10, 1000), reservations: { orders: { IP: 4 } } });
    const c = r.tryCharge([{ pool: 'IP', weight: 6 }], 0, 'orders');
    if (!c.ok) throw new Error('refused');
    r.restamp(c.receipt, 500);
    expect([r.capacity('IP', 1200, 'orders'), r.capacity('IP', 1200)]).toEqual([4, 4]);
    expect([r.capacity('IP', 1500, 'orders'), r.capacity('IP', 1500)]).toEqual([10, 6]);
  });

  it('prunes entries that left the window (bounded memory)', () => {
    const l = new WeightLedger({ pools: pools(10) });
    for (let t = 0; t < 100_000; t += 100) expect(l.tryCharge([{ pool: 'IP', weight: 1 }], t).ok).toBe(true);
    const internal = (l as unknown as { pools: Map<PoolName, { entries: unknown[]; head: number }> }).pools.get('IP')!;
    // Live entries are the window's; pruned ones are compacted away in batches, so storage stays bounded.
    expect(internal.entries.length - internal.head).toBeLessThanOrEqual(10);
    expect(internal.entries.length).toBeLessThanOrEqual(2 * 1024 + 10);
    expect(l.usage('IP', 100_000)).toBe(9);
  });

  it('never lets any window hold more than the limit (property)', () => {
    const op = fc.record({
      dt: fc.integer({ min: 0, max: 400 }),
      ip: fc.integer({ min: 0, max: 12 }),
      orders: fc.integer({ min: 0, max: 1 }),
      consumer: fc.constantFrom(undefined, 'cancels', 'other'),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const cfg = { pools: pools(40), reservations: { cancels: { IP: 10, ORDERS: 1 } } };
        const l = new WeightLedger(cfg);
        const booked: { t: number; ip: number; orders: number; consumer: string | undefined }[] = [];
        let t = 0;
        for (const o of ops) {
          t += o.dt;
          const charges = [{ pool: 'IP' as const, weight: o.ip }, { pool: 'ORDERS' as const, weight: o.orders }];
          if (l.tryCharge(charges, t, o.consumer).ok) booked.push({ t, ...o });
        }
        for (const start of booked) {
          const inWin = (w: number) => booked.filter((b) => b.t >= start.t && b.t < start.t + w);
          expect(inWin(1000).reduce((a, b) => a + b.ip, 0)).toBeLessThanOrEqual(40);
          expect(inWin(500).reduce((a, b) => a + b.orders, 0)).toBeLessThanOrEqual(2);
          // non-reserving callers never dig into the reservation
          const shared = inWin(1000).filter((b) => b.consumer !== 'cancels');
          expect(shared.reduce((a, b) => a + b.ip, 0)).toBeLessThanOrEqual(30);
        }
      }),
      { numRuns: 200 },
    );
  });
});
