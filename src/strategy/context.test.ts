import { describe, expect, it } from 'vitest';
import { D } from '../core/money/decimal.ts';
import { BarHistory } from './series/bar-series.ts';
import { createContext } from './context.ts';
import { StrategyContextError } from './errors.ts';
import { FakeStateView } from './testing/fake-state.ts';
import { testInstrument } from './testing/test-instrument.ts';

function make() {
  const view = new FakeStateView({
    now: 1234,
    instruments: [testInstrument({ tickSize: '0.05', minPrice: '0.05', stepSize: '0.001', minQty: '0.001', minNotional: '100' })],
    balances: { PHP: '1000.50' },
  });
  const history = new BarHistory('BTCPHP', '1m', 10);
  const logs: string[] = [];
  const ctx = createContext({
    name: 'demo',
    params: Object.freeze({ a: 1 }),
    state: { counter: 0 },
    symbols: ['BTCPHP'],
    intervals: ['1m'],
    view,
    series: (symbol, interval) => (symbol === 'BTCPHP' && interval === '1m' ? history.view : undefined),
    book: () => undefined,
    lastTrade: () => undefined,
    log: (m) => logs.push(m),
  });
  return { ctx, view, logs };
}

describe('strategy context', () => {
  it('is frozen except for the strategy state', () => {
    const { ctx } = make();
    expect(Object.isFrozen(ctx)).toBe(true);
    ctx.state.counter++;
    expect(ctx.state.counter).toBe(1);
    expect(() => ((ctx as { name: string }).name = 'x')).toThrow(TypeError);
    expect(ctx.now()).toBe(1234);
    expect(ctx.symbol).toBe('BTCPHP');
  });

  it('balances as Decimals, zero for unknown assets', () => {
    const { ctx, view } = make();
    expect(ctx.balance('PHP').free.toFixed()).toBe('1000.5');
    expect(ctx.balance('BTC').total.isZero()).toBe(true);
    view.setBalance('BTC', '0.5', '0.25');
    expect(ctx.balance('BTC').total.toFixed()).toBe('0.75');
    expect(ctx.balances().map((b) => b.asset)).toEqual(['PHP', 'BTC']);
    expect(Object.isFrozen(ctx.balance('BTC'))).toBe(true);
  });

  it('positions: zero when none, flat below minQty', () => {
    const { ctx, view } = make();
    expect(ctx.position()).toMatchObject({ symbol: 'BTCPHP', flat: true, avgEntryPrice: undefined });
    expect(ctx.position().base.isZero()).toBe(true);
    view.setPosition('BTCPHP', '0.0005', '100');
    expect(ctx.position().flat).toBe(true); // dust
    view.setPosition('BTCPHP', '0.002', '100');
    expect(ctx.position().flat).toBe(false);
    expect(ctx.position().avgEntryPrice?.toFixed()).toBe('100');
  });

  it('open orders are the view\'s, frozen, with Decimal money', () => {
    const { ctx, view } = make();
    view.setOpenOrders([{ symbol: 'BTCPHP', clientOrderId: 'c1', tag: 'bid', side: 'BUY', type: 'LIMIT', status: 'NEW', price: '99.95', origQty: '1', executedQty: '0', time: 1 }]);
    const [o] = ctx.openOrders();
    expect(o?.price?.toFixed()).toBe('99.95');
    expect(Object.isFrozen(o)).toBe(true);
    expect(ctx.openOrders('BTCPHP')).toHaveLength(1);
  });

  it('instrument helpers round indicator numbers onto the grid as strings', () => {
    const { ctx } = make();
    const inst = ctx.instrument();
    expect(inst).toMatchObject({ symbol: 'BTCPHP', baseAsset: 'BTC', quoteAsset: 'PHP', tickSize: '0.05', stepSize: '0.001', minQty: '0.001', minNotional: '100' });
    expect(inst.roundPrice(100.0749999)).toBe('100.05');
    expect(inst.roundPrice(100.08)).toBe('100.1');
    expect(inst.roundPrice(100.08, 'down')).toBe('100.05');
    expect(inst.roundQty(0.12345)).toBe('0.123');
    expect(inst.roundQty(new D('0.0009'))).toBe('0');
    expect(inst.qtyForQuote('1000', '300')).toBe('3.333');
    expect([inst.capQty(new D('2.34567')), inst.capQty('0.0009'), inst.capQty(new D('100000.0009')), inst.capQty('250000.5')]).toEqual(['2.345', '0', '100000', '100000']);
    // Risk 100 PHP with the stop 40 under the entry: 2.5 BTC; a short's stop above counts the same; at most maxQty.
    expect([inst.qtyForRisk('100', '2000', '1960'), inst.qtyForRisk(new D('100'), 2000, 2040), inst.qtyForRisk('1', '300', '299.97'), inst.qtyForRisk('1000000000', '2000', '1999.95')]).toEqual(['2.5', '2.5', '33.333', '100000']);
    expect(() => inst.qtyForRisk('100', '2000', '2000')).toThrow('qtyForRisk: the stop 2000 is the entry: no distance to size by');
    expect(() => inst.qtyForRisk('-1', '2000', '1900')).toThrow('qtyForRisk: risk must be >= 0, got -1');
    expect(() => inst.qtyForRisk('10', '2000', '0')).toThrow('qtyForRisk: entry and stop must be > 0, got entry 2000, stop 0');
    expect(inst.meetsMinimums('0.5', '100')).toBe(false); // notional 50 < 100
    expect(inst.meetsMinimums('1', '100')).toBe(true);
    expect(inst.meetsMinimums('0.0005', '1000000')).toBe(false); // below minQty
    expect(() => inst.roundPrice(Number.NaN)).toThrow(/not a finite number/);
    expect(ctx.instrument('BTCPHP')).toBe(inst); // cached
  });

  it('logs a message as text: a string as it is, an object (a JavaScript strategy may pass one) as its JSON', () => {
    const { ctx, logs } = make();
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    for (const m of ['plain', { side: 'BUY', qty: 1 }, 42, undefined, cycle]) ctx.log(m as never);
    expect(logs).toEqual(['plain', '{"side":"BUY","qty":1}', '42', 'undefined', '[object Object]']);
  });

  it('refuses symbols and intervals the strategy did not declare', () => {
    const { ctx } = make();
    expect(() => ctx.bars('ETHPHP')).toThrow(StrategyContextError);
    expect(() => ctx.bars('ETHPHP')).toThrow("'ETHPHP' is not one of the strategy's symbols (BTCPHP)");
    expect(() => ctx.bars('BTCPHP', '5m')).toThrow("interval '5m' is not one of the strategy's intervals (1m)");
    // Each says what to do about it.
    expect(() => ctx.bars('ETHPHP')).toThrow("(BTCPHP): add it to the definition's `symbols` to read it");
    expect(() => ctx.bars('BTCPHP', '5m')).toThrow("(1m): add it to the definition's `intervals` to read its bars (intervals: (p) => [p.interval, '5m']; onBar then runs for its bars too: check bar.interval)");
    expect(() => ctx.position('ETHPHP')).toThrow(StrategyContextError);
    expect(ctx.bars().length).toBe(0);
  });

  it('says so when exchange rules are missing', () => {
    const view = new FakeStateView();
    const ctx = createContext({
      name: 'd', params: {}, state: undefined, symbols: ['BTCPHP'], intervals: ['1m'], view,
      series: () => undefined, book: () => undefined, lastTrade: () => undefined, log: () => undefined,
    });
    expect(() => ctx.instrument()).toThrow(/no exchange rules known for 'BTCPHP'/);
    expect(ctx.position().flat).toBe(true);
  });
});
