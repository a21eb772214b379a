import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../define.ts';
import { cancel, cancelReplace, place } from '../intents/intents.ts';
import type { IntentInput } from '../intents/intents.ts';
import { StrategyHarness } from './harness.ts';
import { candlesFromCloses } from './test-candles.ts';
import { testInstrument } from './test-instrument.ts';

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
    onOrderUpdate: (_ctx, u) => void events.push(`update ${u.tag} ${u.status}${u.reason ? ` (${u.reason})` : ''}`),
  });
  return { def, events };
}

describe('StrategyHarness', () => {
  it('fills MARKET orders at the last close through the real venue and moves balances and position', () => {
    const { def, events } = scripted([[place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quoteOrderQty: '1000', tag: 'm' })]]);
    const h = new StrategyHarness(def, { balances: { PHP: '5000' } });
    h.start();
    const bar = candlesFromCloses(['300'])[0]!;
    h.bar(bar);
    expect(events).toEqual(['update m NEW', 'fill m BUY 3.333333@300 FILLED', 'update m FILLED']);
    expect(h.view.position('BTCPHP')).toEqual({ symbol: 'BTCPHP', base: '3.333333', avgEntryPrice: '300' });
    expect(h.view.balances()).toEqual([
      { asset: 'PHP', free: '4000.0001', locked: '0' },
      { asset: 'BTC', free: '3.333333', locked: '0' },
    ]);
    expect(h.view.time).toBe(bar.closeTime + 1);
    expect(h.fills[0]).toMatchObject({ clientOrderId: expect.stringMatching(/^hy[0-9a-z]{7}m-1$/), isMaker: false, commission: '0' });
  });

  it('charges the fees it is given, in the asset received', () => {
    const { def } = scripted([[place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1', tag: 'm' })]]);
    const h = new StrategyHarness(def, { balances: { PHP: '5000' }, fees: { maker: '0.001', taker: '0.002' } });
    h.start();
    h.bar(candlesFromCloses(['300'])[0]!);
    expect(h.fills[0]).toMatchObject({ qty: '1', commission: '0.002', commissionAsset: 'BTC' });
    expect(h.view.position('BTCPHP')?.base).toBe('0.998');
  });

  it('rests LIMIT orders; bars trade through them, fill() fills them; cancels and replaces act on them', () => {
    const { def, events } = scripted([
      [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '2', price: '100', tag: 'a' })],
      [cancelReplace({ symbol: 'BTCPHP', tag: 'a', order: { side: 'BUY', type: 'LIMIT', quantity: '2', price: '101' } })],
      [cancel({ symbol: 'BTCPHP', tag: 'zz' })],
    ]);
    const h = new StrategyHarness(def, { balances: { PHP: '1000' } });
    h.start();
    const bars = candlesFromCloses(['105', '105', '104']);
    h.bar(bars[0]!);
    expect(h.openOrders()).toMatchObject([{ tag: 'a', price: '100', quantity: '2', executedQty: '0' }]);
    expect(h.view.openOrders()[0]).toMatchObject({ status: 'NEW', tag: 'a' });
    expect(h.view.balances()[0]).toEqual({ asset: 'PHP', free: '800', locked: '200' });
    h.bar(bars[1]!);
    expect(h.openOrders()).toMatchObject([{ tag: 'a', price: '101' }]);
    h.bar(bars[2]!); // 105 -> 104 does not reach 101
    expect(h.notes).toEqual(["no open order with tag 'zz' on BTCPHP"]);
    h.fill('a', { qty: '0.5' });
    expect(h.view.openOrders()[0]).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '0.5' });
    // A bar trading down through 101 fills the rest, as maker at the limit price.
    h.bar(candlesFromCloses(['104', '100.5'], { startTime: bars[2]!.closeTime + 1 })[1]!);
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

  it('denies what breaks a filter or the balance before the venue sees it, with the reasons', () => {
    const { def, events } = scripted([
      [
        place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '0.1', price: '100.005', tag: 'tick' }),
        place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '20', price: '100', tag: 'big' }),
      ],
    ]);
    const h = new StrategyHarness(def, { instruments: [testInstrument({ minNotional: '1' })], balances: { PHP: '1000' } });
    h.start();
    h.bar(candlesFromCloses(['105'])[0]!);
    expect(events).toEqual([
      'update tick DENIED (Filter failure: PRICE_FILTER: price 100.005 is not a multiple of tickSize 0.01 above minPrice 0.01 (hint: ctx.instrument().roundPrice() puts a price on the tick))',
      'update big DENIED (Account has insufficient balance for requested action: needs 2000 PHP, 1000 available)',
    ]);
    expect(h.venue.engine.allOrders('backtest')).toEqual([]);
  });

  it('records intents with their time, and failures', () => {
    const def = defineStrategy({ name: 'bad', params: z.object({}), symbols: ['BTCPHP'], onBar: () => [{ kind: 'nope' }] as never });
    const h = new StrategyHarness(def);
    h.start();
    h.bar(candlesFromCloses(['1'])[0]!);
    expect(h.failures).toHaveLength(1);
    expect(h.intents).toEqual([]);
  });

  it('fires a timer at each due time inside a bar, as a backtest does', () => {
    const times: string[] = [];
    const def = defineStrategy({ name: 'ticker', params: z.object({}), symbols: ['BTCPHP'], timerMs: 15_000, onTimer: (ctx, time) => void times.push(`${time}@${ctx.now()}`), onBar: () => undefined });
    const h = new StrategyHarness(def, { balances: { PHP: '5000' } });
    const [bar] = candlesFromCloses(['300'], { startTime: 0 });
    h.start();
    h.bar(bar!);
    // Due at 15, 30 and 45 s inside the bar, each on the clock of its time, then 60 s at the delivery.
    expect(times).toEqual(['15000@15000', '30000@30000', '45000@45000', '60000@60000']);
    expect(h.view.time).toBe(60_000);
  });
});
