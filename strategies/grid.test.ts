import { describe, expect, it } from 'vitest';
import { StrategyRunner } from '../src/strategy/index.ts';
import { candlesFromCloses, FakeStateView, StrategyHarness, testInstrument } from '../src/strategy/testing/index.ts';
import grid from './grid.ts';

const params = { lower: '900', upper: '1100', levels: 5, quantity: '0.01' };
// The harness runs the real pre-trade checks: these 0.01 BTC levels are worth ~10 PHP, under testInstrument's default minNotional of 100.
const instruments = [testInstrument({ minNotional: '1' })];
const limit = (side: 'BUY' | 'SELL', price: string, tag: string) => ({ kind: 'place', symbol: 'BTCPHP', side, type: 'LIMIT', quantity: '0.01', price, timeInForce: 'GTC', tag });

function harness(base = '0.02') {
  const h = new StrategyHarness(grid, { params, instruments, balances: { PHP: '10000', BTC: base } });
  h.view.setPosition('BTCPHP', base, '1000');
  h.start();
  return h;
}

describe('grid', () => {
  it('arms buys below and sells above the price on the first bar, leaving the nearest level empty', () => {
    const h = harness();
    const out = h.bar(candlesFromCloses(['1001.00'])[0]!);
    // levels 900, 950, 1000, 1050, 1100; the price sits at level 2
    expect(out).toEqual([limit('BUY', '950', 'L1'), limit('BUY', '900', 'L0'), limit('SELL', '1050', 'L3'), limit('SELL', '1100', 'L4')]);
    expect(h.bars(candlesFromCloses(['1001', '990'], { startTime: 10 * 60_000 }))).toEqual([]); // armed once
    expect(h.failures).toEqual([]);
  });

  it('places only as many sells as the position covers', () => {
    const h = harness('0.015');
    const out = h.bar(candlesFromCloses(['1001'])[0]!);
    expect(out.filter((i) => i.kind === 'place' && i.side === 'SELL')).toEqual([limit('SELL', '1050', 'L3')]);
    expect(harness('0').bar(candlesFromCloses(['1001'])[0]!)).toHaveLength(2);
  });

  it('re-arms one step away when a level fills, and only when it fills completely', () => {
    const h = harness();
    h.bar(candlesFromCloses(['1001'])[0]!);
    expect(h.fill('L1', { qty: '0.004' })).toEqual([]); // partial: nothing yet
    expect(h.fill('L1')).toEqual([limit('SELL', '1000', 'L2')]); // bought at 950, sell one step up
    expect(h.fill('L2')).toEqual([limit('BUY', '950', 'L1')]); // sold at 1000, buy one step down
    // A trade at L4's 1100 reaches L3's 1050 first (the real matching engine): L3 fills, its buy goes one step down.
    expect(h.fill('L4')).toEqual([limit('BUY', '1000', 'L2')]);
    expect(h.openOrders().map((o) => o.tag)).toEqual(['L0', 'L4', 'L1', 'L2']);
    expect(h.failures).toEqual([]);
  });

  it('re-arms a filled BUY with what it delivered when the commission was taken in base', () => {
    // 0.1% taker and maker: the 0.01 BTC bought at L1 delivers 0.00999 BTC.
    const h = new StrategyHarness(grid, { params, instruments, balances: { PHP: '10000', BTC: '0' }, fees: { maker: '0.001', taker: '0.001' } });
    h.start();
    h.bar(candlesFromCloses(['1001'])[0]!);
    expect(h.fill('L1', { qty: '0.004' })).toEqual([]);
    expect(h.fill('L1')).toEqual([{ ...limit('SELL', '1000', 'L2'), quantity: '0.00999' }]);
    expect(h.fill('L2')).toEqual([limit('BUY', '950', 'L1')]); // a SELL's commission is in quote: the buy is the level's quantity
    expect(h.failures).toEqual([]);
    expect(h.denials).toEqual([]);
  });

  it('refuses a quantity below the LOT_SIZE step, saying so', () => {
    const h = new StrategyHarness(grid, { params: { ...params, quantity: '0.0000001' }, instruments, balances: { PHP: '10000' } });
    h.start();
    expect(h.bar(candlesFromCloses(['1001'])[0]!)).toEqual([]);
    expect(h.failures.map((f) => f.message)).toEqual([expect.stringMatching(/quantity 0\.0000001 is below BTCPHP's LOT_SIZE step 0\.000001: set a larger quantity/)]);
  });

  it('does not double a level that already has a live order', () => {
    const view = new FakeStateView({ instruments: [testInstrument()] });
    view.setPosition('BTCPHP', '0.02', '1000');
    const runner = new StrategyRunner(grid, { params, state: view });
    runner.start();
    const bar = candlesFromCloses(['1001'])[0]!;
    view.time = bar.closeTime + 1;
    expect(runner.bar('BTCPHP', '1m', bar)).toHaveLength(4); // L1, L0 buys; L3, L4 sells
    const fill = { symbol: 'BTCPHP', clientOrderId: 'g-4', orderId: '4', tradeId: '1', price: '1100', qty: '0.01', quoteQty: '11', commission: '0', commissionAsset: 'PHP', isMaker: true, cumulativeQty: '0.01', time: view.time };
    expect(runner.fill({ ...fill, tag: 'L4', side: 'SELL', orderStatus: 'FILLED' })).toEqual([]); // level 3 still has its sell
  });

  it('rounds level prices to the tick', () => {
    const h = new StrategyHarness(grid, { params: { lower: '900', upper: '1000', levels: 4, quantity: '0.01' }, instruments });
    h.start();
    const out = h.bar(candlesFromCloses(['1100'])[0]!);
    expect(out.map((i) => (i.kind === 'place' ? i.price : ''))).toEqual(['966.67', '933.33', '900']);
  });

  it('frees a level whose order was denied, and cancels what is live on stop', () => {
    const view = new FakeStateView({ instruments: [testInstrument()] });
    const logs: string[] = [];
    const runner = new StrategyRunner(grid, { params, state: view, onLog: (e) => logs.push(e.message) });
    runner.start();
    const bar = candlesFromCloses(['1001'])[0]!;
    view.time = bar.closeTime + 1;
    expect(runner.bar('BTCPHP', '1m', bar)).toHaveLength(2);
    runner.orderUpdate({ symbol: 'BTCPHP', clientOrderId: 'g-1', tag: 'L1', side: 'BUY', type: 'LIMIT', status: 'DENIED', reason: 'insufficient balance', executedQty: '0', cumulativeQuoteQty: '0', time: view.time });
    expect(logs).toEqual(['level 1 order DENIED']);
    expect(runner.stop()).toEqual([{ kind: 'cancel', symbol: 'BTCPHP', tag: 'L0' }]);
  });

  it('rejects an upside-down range', () => {
    expect(() => new StrategyRunner(grid, { params: { ...params, lower: '1100', upper: '900' }, state: new FakeStateView() })).toThrow(
      `param 'upper': upper must be greater than lower`,
    );
    expect(() => new StrategyRunner(grid, { params: { quantity: '1' }, state: new FakeStateView() })).toThrow(`param 'lower': expected string or number, got nothing`);
  });
});
