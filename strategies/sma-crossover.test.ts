import { describe, expect, it } from 'vitest';
import { StrategyParamsError, StrategyRunner } from '../src/strategy/index.ts';
import type { Intent } from '../src/strategy/index.ts';
import { candlesFromCloses, FakeStateView, generateCandles, runOnRegime, StrategyHarness, testInstrument } from '../src/strategy/testing/index.ts';
import smaCrossover from './sma-crossover.ts';

const sides = (intents: readonly { intent: Intent }[]) => intents.map(({ intent }) => (intent.kind === 'place' ? intent.side : intent.kind));

describe('sma-crossover', () => {
  it('buys on the golden cross when flat and sells the whole position on the death cross', () => {
    // fast 2 / slow 3: the SMAs are equal on bar 3, the fast one rises above on bar 4 and falls below on bar 6
    // The harness runs the real pre-trade checks: 0.5 at 12 is far below testInstrument's default minNotional of 100.
    const h = new StrategyHarness(smaCrossover, { params: { fast: 2, slow: 3, quantity: '0.5' }, instruments: [testInstrument({ minNotional: '1' })], balances: { PHP: '1000' } });
    h.start();
    const bars = candlesFromCloses([10, 10, 10, 10, 12, 12, 8, 8]);
    const perBar = bars.map((b) => h.bar(b));
    expect(perBar.map((x) => x.length)).toEqual([0, 0, 0, 0, 1, 0, 1, 0]);
    expect(perBar[4]).toEqual([{ kind: 'place', symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '0.5', tag: 'entry' }]);
    expect(perBar[6]).toEqual([{ kind: 'place', symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '0.5', tag: 'exit' }]);
    expect(h.view.position('BTCPHP')?.base).toBe('0');
    expect(h.view.balances().find((b) => b.asset === 'PHP')?.free).toBe('998'); // bought at 12, sold at 8
    expect(h.failures).toEqual([]);
  });

  it('sells a position larger than maxQty in pieces of maxQty, a bar each, until flat', () => {
    // A quote-sized entry of 1200 at 12 buys 100; maxQty 40 sells it as 40 + 40 + 20.
    const h = new StrategyHarness(smaCrossover, { params: { fast: 2, slow: 3, quoteAmount: '1200' }, instruments: [testInstrument({ minNotional: '1', maxQty: '40' })], balances: { PHP: '1200' } });
    h.start();
    const perBar = candlesFromCloses([10, 10, 10, 10, 12, 12, 8, 8, 8, 8, 8]).map((b) => h.bar(b));
    const sells = perBar.flat().filter((i) => i.kind === 'place' && i.side === 'SELL');
    expect(sells.map((i) => (i.kind === 'place' ? i.quantity : ''))).toEqual(['40', '40', '20']);
    expect(perBar.slice(6, 9).map((x) => x.length)).toEqual([1, 1, 1]);
    expect(h.view.position('BTCPHP')?.base).toBe('0');
    expect(h.denials).toEqual([]);
  });

  it('counts as flat a remainder no exit can sell (below the minimum notional), and enters again on the next golden cross', () => {
    // 972 at 12 buys 81; maxQty 40 sells 40 + 40 at 8, then 1 at 8 is worth 8, under minNotional 100: refused, dust.
    const h = new StrategyHarness(smaCrossover, { params: { fast: 2, slow: 3, quoteAmount: '972' }, instruments: [testInstrument({ minNotional: '100', maxQty: '40' })], balances: { PHP: '3000' } });
    h.start();
    const perBar = candlesFromCloses([10, 10, 10, 10, 12, 12, 8, 8, 8, 8, 8, 8, 12, 12, 8, 8, 8, 8]).map((b) => h.bar(b));
    const places = perBar.flat().filter((i) => i.kind === 'place');
    expect(places.map((i) => (i.kind === 'place' ? `${i.side} ${i.quantity ?? i.quoteOrderQty}` : ''))).toEqual(['BUY 972', 'SELL 40', 'SELL 40', 'SELL 1', 'BUY 972', 'SELL 40', 'SELL 40', 'SELL 2']);
    // The second round sells the first one's dust with it (82 = 40 + 40 + 2); its own 2 are dust again.
    expect(h.denials.map((d) => d.tag)).toEqual(['exit', 'exit']);
    expect(h.failures).toEqual([]);
  });

  it('rides a rally and exits the fall on a synthetic market, long only, alternating buy and sell', () => {
    for (const seed of [1, 2, 3]) {
      const market = generateCandles({
        seed,
        segments: [
          { regime: 'slowDown', bars: 200 },
          { regime: { drift: 0.0005, volatility: 0.0008 }, bars: 400 },
          { regime: { drift: -0.0005, volatility: 0.0008 }, bars: 400 },
        ],
      });
      const h = new StrategyHarness(smaCrossover, { params: { fast: 10, slow: 30 }, balances: { PHP: '100000' } });
      h.start();
      const held = market.map((bar) => {
        h.bar(bar);
        return Number(h.view.position('BTCPHP')?.base ?? '0') > 0;
      });
      expect(h.failures).toEqual([]);
      const s = sides(h.intents);
      s.forEach((side, i) => expect(side).toBe(i % 2 === 0 ? 'BUY' : 'SELL'));
      expect(h.intents[0]!.intent).toMatchObject({ type: 'MARKET', quoteOrderQty: '1000' });
      // long through the middle of the rally, out soon after the top
      expect(held.slice(300, 600).every(Boolean)).toBe(true);
      expect(held.slice(600, 700).some((x) => !x)).toBe(true);
      expect(s.at(-1)).toBe('SELL');
      expect(h.view.position('BTCPHP')?.base).toBe('0');
    }
  });

  it('plots its two averages for the report, one point per bar it saw after the warmup', () => {
    const { run } = runOnRegime(smaCrossover, 'upThenDown', { fast: 5, slow: 12 });
    const bars = run.barCount - 12; // onBar from the 13th bar (warmup slow + 1)
    expect(run.plots?.map((p) => [p.name, p.pane, p.points.length])).toEqual([
      ['fast SMA', 'price', bars],
      ['slow SMA', 'price', bars],
    ]);
    const [fast, slow] = run.plots!;
    // The last points: the averages of the last 5 and 12 closes.
    expect(fast!.points.at(-1)![0]).toBe(run.to);
    expect(slow!.points.at(-1)![1]).toBeGreaterThan(0);
  });

  it('does not act again while its own order is in flight', () => {
    const view = new FakeStateView({ instruments: [testInstrument()] });
    const runner = new StrategyRunner(smaCrossover, { params: { fast: 2, slow: 3 }, state: view });
    runner.start();
    const bars = candlesFromCloses([10, 10, 10, 10, 12, 12, 8, 8, 14, 16]);
    const out = bars.map((b) => {
      view.time = b.closeTime + 1;
      return runner.bar('BTCPHP', '1m', b);
    });
    // bar 4 buys; the order never reports back, so the later golden cross (bar 8) is not bought again
    expect(out.map((x) => x.length)).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 0, 0]);
    runner.orderUpdate({ symbol: 'BTCPHP', clientOrderId: 'x', tag: 'entry', side: 'BUY', type: 'MARKET', status: 'EXPIRED', executedQty: '0', cumulativeQuoteQty: '0', time: view.time });
    const more = candlesFromCloses([16, 10, 30], { startTime: bars.at(-1)!.closeTime + 1 });
    const after = more.map((b) => {
      view.time = b.closeTime + 1;
      return runner.bar('BTCPHP', '1m', b);
    });
    expect(after.flat()).toHaveLength(1);
  });

  it('explains bad parameters', () => {
    const view = new FakeStateView();
    const make = (params: unknown) => () => new StrategyRunner(smaCrossover, { params, state: view });
    expect(make({ fast: 'x' })).toThrow(`param 'fast': expected integer >= 2, got "x"`);
    expect(make({ fast: 30, slow: 10 })).toThrow(`param 'slow': slow must be greater than fast`);
    expect(make({ quantity: 0.5, qty: 1 })).toThrow(StrategyParamsError);
  });
});
