import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../define.ts';
import { cancel, cancelReplace, place } from '../intents.ts';
import type { IntentInput } from '../intents.ts';
import { StrategyHarness } from './harness.ts';
import { candlesFromCloses } from './test-candles.ts';

/** A scripted strategy: each bar returns the next batch of intents; fills and updates are recorded. */
function scripted(batches: IntentInput[][]) {
  const events: string[] = [];
  const def = defineStrategy({
    name: 'scripted',
    params: z.object({}),
    symbols: ['BTCPHP'],
    state: () => ({ i: 0 }),
    onBar: (ctx) => batches[ctx.state.i++] ?? [],
    onFill: (_ctx, f) => void events.push(`fill ${f.tag} ${f.side} ${f.qty.toFixed()}@${f.price.toFixed()} ${f.orderStatus}`),
    onOrderUpdate: (_ctx, u) => void events.push(`update ${u.tag} ${u.status}`),
  });
  return { def, events };
}

describe('StrategyHarness', () => {
  it('fills MARKET orders at the last close and moves balances and position', () => {
    const { def, events } = scripted([[place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quoteOrderQty: '1000', tag: 'm' })]]);
    const h = new StrategyHarness(def, { balances: { PHP: '5000' } });
    h.start();
    h.bar(candlesFromCloses(['300'])[0]!);
    expect(events).toEqual(['fill m BUY 3.333333@300 FILLED', 'update m FILLED']);
    expect(h.view.position('BTCPHP')).toEqual({ symbol: 'BTCPHP', base: '3.333333', avgEntryPrice: '300' });
    expect(h.view.balances()).toEqual([
      { asset: 'PHP', free: '4000.0001', locked: '0' },
      { asset: 'BTC', free: '3.333333', locked: '0' },
    ]);
    expect(h.view.time).toBe(candlesFromCloses(['300'])[0]!.closeTime + 1);
  });

  it('rests other orders until filled (partially, then fully); cancels and replaces them', () => {
    const { def, events } = scripted([
      [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '2', price: '100', tag: 'a' })],
      [cancelReplace({ symbol: 'BTCPHP', tag: 'a', order: { side: 'BUY', type: 'LIMIT', quantity: '2', price: '101' } })],
      [cancel({ symbol: 'BTCPHP', tag: 'zz' })],
    ]);
    const h = new StrategyHarness(def, { balances: { PHP: '1000' } });
    h.start();
    const bars = candlesFromCloses(['100', '100', '100']);
    h.bar(bars[0]!);
    expect(h.openOrders()).toMatchObject([{ tag: 'a', price: '100', quantity: '2', executedQty: '0' }]);
    expect(h.view.openOrders()[0]).toMatchObject({ status: 'NEW', tag: 'a' });
    h.bar(bars[1]!);
    expect(h.openOrders()).toMatchObject([{ tag: 'a', price: '101' }]);
    h.bar(bars[2]!);
    expect(h.notes).toEqual(["cancel of 'zz' found no resting order"]);
    h.fill('a', { qty: '0.5' });
    expect(h.view.openOrders()[0]).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '0.5' });
    h.fill('a');
    expect(h.openOrders()).toEqual([]);
    expect(events).toEqual([
      'update a NEW',
      'update a CANCELED',
      'update a NEW',
      'fill a BUY 0.5@101 PARTIALLY_FILLED',
      'update a PARTIALLY_FILLED',
      'fill a BUY 1.5@101 FILLED',
      'update a FILLED',
    ]);
    expect(h.view.position('BTCPHP')?.base).toBe('2');
    expect(() => h.fill('a')).toThrow(/no resting order 'a'/);
  });

  it('records intents with their time, and failures', () => {
    const def = defineStrategy({ name: 'bad', params: z.object({}), symbols: ['BTCPHP'], onBar: () => [{ kind: 'nope' }] as never });
    const h = new StrategyHarness(def);
    h.start();
    h.bar(candlesFromCloses(['1'])[0]!);
    expect(h.failures).toHaveLength(1);
    expect(h.intents).toEqual([]);
  });
});
