import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '../../money/decimal.ts';
import { checkOrder } from '../../market/index.ts';
import { fastPasses, fastPassesMarket } from './fast-filters.ts';
import { formatScaled, parseScaled } from './scaled.ts';
import { buildSymbolSpec } from './symbol-spec.ts';
import { instrument } from '../test-support.ts';

const filterSet = fc.record({
  tick: fc.constantFrom('0.01', '0.05', '0.1', '1', '0.005', '0'),
  minPrice: fc.constantFrom('0', '0.01', '0.005', '1'),
  maxPrice: fc.constantFrom('0', '1000', '99.99'),
  step: fc.constantFrom('0.001', '0.01', '1', '0'),
  minQty: fc.constantFrom('0', '0.001', '0.5'),
  maxQty: fc.constantFrom('0', '100'),
  minNotional: fc.option(fc.constantFrom('0', '1', '10.5'), { nil: undefined }),
  maxNotional: fc.constantFrom('0', '5000'),
  minNotionalFilter: fc.option(fc.constantFrom('2', '0.3'), { nil: undefined }),
  maxNumOrders: fc.option(fc.constantFrom(0, 2, 200), { nil: undefined }),
  status: fc.constantFrom('TRADING', 'TRADING', 'BREAK'),
  noMaker: fc.boolean(),
});

describe('fast filter pre-check', () => {
  it('agrees with the filter engine on LIMIT and LIMIT_MAKER orders', () => {
    fc.assert(
      fc.property(filterSet, fc.nat({ max: 3000 }), fc.nat({ max: 3000 }), fc.nat({ max: 3 }), fc.boolean(), fc.integer({ min: -1, max: 1 }), (f, kp, kq, open, maker, nudge) => {
        const filters: Record<string, unknown>[] = [
          { filterType: 'PRICE_FILTER', minPrice: f.minPrice, maxPrice: f.maxPrice, tickSize: f.tick },
          { filterType: 'LOT_SIZE', minQty: f.minQty, maxQty: f.maxQty, stepSize: f.step },
          { filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 5 },
        ];
        if (f.minNotional !== undefined) filters.push({ filterType: 'NOTIONAL', minNotional: f.minNotional, maxNotional: f.maxNotional });
        if (f.minNotionalFilter !== undefined) filters.push({ filterType: 'MIN_NOTIONAL', minNotional: f.minNotionalFilter });
        if (f.maxNumOrders !== undefined) filters.push({ filterType: 'MAX_NUM_ORDERS', maxNumOrders: f.maxNumOrders });
        const inst = instrument({ filters, status: f.status, orderTypes: f.noMaker ? ['LIMIT', 'MARKET'] : undefined });
        const spec = buildSymbolSpec(inst);
        const fast = spec.fast;
        expect(fast).toBeDefined();
        if (fast === undefined) return;
        // Mostly on the grid (k steps above the minimum), sometimes one unit off it.
        const grid = (min: number, step: number, k: number) => Math.max(0, (Number.isFinite(min) ? min : 0) + k * (step || 1) + (k % 7 === 0 ? nudge : 0));
        const pInt = grid(fast.minP, fast.tickP, kp);
        const qInt = grid(fast.minQ, fast.stepQ, kq);
        const type = maker ? 'LIMIT_MAKER' : 'LIMIT';
        const price = dec(formatScaled(pInt, spec.pd));
        const quantity = dec(formatScaled(qInt, spec.qd));
        const slow = checkOrder(inst, { symbol: 'BTCPHP', side: 'BUY', type, price, quantity }, { openOrders: open });
        expect(fastPasses(fast, maker, pInt, qInt, open)).toBe(slow.ok);
      }),
      { numRuns: 2000 },
    );
  });

  it('never passes a MARKET order the filter engine refuses, and passes the plain ones', () => {
    let agreed = 0;
    fc.assert(
      fc.property(
        filterSet,
        fc.nat({ max: 3000 }),
        fc.option(fc.nat({ max: 400_000 }), { nil: undefined }),
        fc.integer({ min: -1, max: 5000 }),
        fc.nat({ max: 3 }),
        fc.integer({ min: -1, max: 1 }),
        (f, kq, quoteCents, lastInt, open, nudge) => {
          const filters: Record<string, unknown>[] = [
            { filterType: 'PRICE_FILTER', minPrice: f.minPrice, maxPrice: f.maxPrice, tickSize: f.tick },
            { filterType: 'LOT_SIZE', minQty: f.minQty, maxQty: f.maxQty, stepSize: f.step },
          ];
          if (f.minNotional !== undefined) filters.push({ filterType: 'NOTIONAL', minNotional: f.minNotional, maxNotional: f.maxNotional });
          if (f.minNotionalFilter !== undefined) filters.push({ filterType: 'MIN_NOTIONAL', minNotional: f.minNotionalFilter });
          if (f.maxNumOrders !== undefined) filters.push({ filterType: 'MAX_NUM_ORDERS', maxNumOrders: f.maxNumOrders });
          const inst = instrument({ filters, status: f.status, orderTypes: f.noMaker ? ['LIMIT', 'LIMIT_MAKER'] : undefined });
          const spec = buildSymbolSpec(inst);
          const fast = spec.fast;
          if (fast === undefined) return;
          const qInt = Math.max(0, (Number.isFinite(fast.minQ) ? fast.minQ : 0) + kq * (fast.stepQ || 1) + (kq % 7 === 0 ? nudge : 0));
          const quote = quoteCents === undefined ? undefined : formatScaled(quoteCents, 2);
          const last = lastInt < 0 ? -1 : Math.max(1, lastInt);
          const order = { symbol: 'BTCPHP', side: 'SELL' as const, type: 'MARKET' as const, ...(quote === undefined ? { quantity: dec(formatScaled(qInt, spec.qd)) } : { quoteOrderQty: dec(quote) }) };
          const slow = checkOrder(inst, order, { openOrders: open, ...(last < 0 ? {} : { lastPrice: dec(formatScaled(last, spec.pd)) }) });
          const units = quote === undefined ? 0n : BigInt(quoteCents as number) * 10n ** 16n;
          // The budget on the notional scale half the time, as bigint units only the other half.
          const quoteN = quote !== undefined && kq % 2 === 0 ? parseScaled(quote, spec.pd + spec.qd) : -1;
          const quick = fastPassesMarket(fast, quote === undefined ? qInt : 0, quoteN, units, last, open, spec.notionalK);
          if (quick) expect(slow.ok).toBe(true);
          if (quick === slow.ok) agreed++;
        },
      ),
      { numRuns: 2000 },
    );
    expect(agreed).toBeGreaterThan(1800);
  });

  it('is not offered when a filter needs market data it does not model', () => {
    const inst = instrument({ filters: [{ filterType: 'PERCENT_PRICE_BY_SIDE', bidMultiplierUp: '1.1', bidMultiplierDown: '0.9', askMultiplierUp: '1.1', askMultiplierDown: '0.9' }] });
    expect(buildSymbolSpec(inst).fast).toBeUndefined();
  });
});
