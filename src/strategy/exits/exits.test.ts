import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Candle } from '../../core/indicators/candle.ts';
import { defineStrategy } from '../define.ts';
import { ExitsConfigError, exits } from './exits.ts';
import type { ExitsConfig, PositionExits } from './exits.ts';
import type { Intent, IntentInput } from '../intents/intents.ts';
import { place } from '../intents/intents.ts';
import { StrategyRunner } from '../runner.ts';
import { candlesFromCloses, FakeStateView, StrategyHarness, testInstrument } from '../testing/index.ts';
import type { HarnessOptions } from '../testing/index.ts';

/**
 * A strategy that hands everything to one exits() helper and, on the bars a test names, returns
 * the intents it is given (its entries). `helper()` is the instance's helper, to read its state.
 */
function guarded(config: ExitsConfig, script: Record<number, IntentInput[]> = {}) {
  let made: PositionExits | undefined;
  const def = defineStrategy({
    name: 'guarded',
    params: z.object({}),
    symbols: ['BTCPHP'],
    state: () => ({ bar: 0, exit: (made = exits(config)) }),
    onBar(ctx, bar) {
      const out = ctx.state.exit.onBar(ctx, bar);
      const mine = script[ctx.state.bar++] ?? [];
      return [...out, ...mine];
    },
    onFill: (ctx, fill) => ctx.state.exit.onFill(ctx, fill),
    onOrderUpdate: (ctx, update) => ctx.state.exit.onOrderUpdate(ctx, update),
    onDenial: (ctx, denial) => ctx.state.exit.onDenial(ctx, denial),
  });
  return { def, helper: () => made as PositionExits };
}

const buy = (quantity: string, extra: Partial<{ type: 'LIMIT'; price: string }> = {}): IntentInput => place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity, tag: 'entry', ...extra });

/** An intent in a line: `place SELL STOP_LOSS 1 @9.8 sl`, `cancelReplace sl -> MARKET 1 tp`. */
function said(i: Intent): string {
  if (i.kind === 'place') return `place ${i.side} ${i.type} ${i.quantity ?? i.quoteOrderQty ?? ''}${i.stopPrice ? ` @${i.stopPrice}` : ''}${i.price ? ` @${i.price}` : ''} ${i.tag ?? ''}`;
  if (i.kind === 'cancelReplace') return `cancelReplace ${i.tag ?? i.clientOrderId} -> ${i.order.type} ${i.order.quantity ?? ''}${i.order.stopPrice ? ` @${i.order.stopPrice}` : ''} ${i.order.tag ?? ''}`;
  return `cancel ${i.tag ?? i.clientOrderId}`;
}

function harness(def: ReturnType<typeof guarded>['def'], options: HarnessOptions = {}) {
  const h = new StrategyHarness(def, { instruments: [testInstrument({ minNotional: '1' })], balances: { PHP: '100000' }, ...options });
  h.start();
  return h;
}

/** Bars after `after` (or from the default start), from closes. */
const next = (closes: (number | string)[], after?: Candle) => candlesFromCloses(closes, after ? { startTime: after.closeTime + 1 } : {});

describe('exits(): the protective stop', () => {
  it('goes in after the entry fill: STOP_LOSS of capQty(position.base), stopPrice rounded down to the tick', () => {
    const { def, helper } = guarded({ stopLoss: 0.02 }, { 0: [buy('1.5')] });
    const h = harness(def);
    // Bought at 10.07: the stop is 10.07 * 0.98 = 9.8686, down to 9.86.
    const out = h.bar(next([10.07])[0]!);
    expect(out.map(said)).toEqual(['place BUY MARKET 1.5 entry', 'place SELL STOP_LOSS 1.5 @9.86 sl']);
    expect(h.openOrders()).toMatchObject([{ tag: 'sl', type: 'STOP_LOSS', side: 'SELL', stopPrice: '9.86', quantity: '1.5' }]);
    expect(helper().state.live).toMatchObject({ reason: 'sl', stopPrice: '9.86', quantity: '1.5' });
    expect(h.denials).toEqual([]);
  });

  it('is triggered by the bar trading down through it, fills at its price, and leaves the helper flat and idle', () => {
    const { def, helper } = guarded({ stopLoss: 0.02, takeProfit: 0.05 }, { 0: [buy('1')] });
    const h = harness(def);
    const bars = next([10, 10.1, 9.5, 9.4]);
    expect(bars.map((b) => h.bar(b).map(said))).toEqual([['place BUY MARKET 1 entry', 'place SELL STOP_LOSS 1 @9.8 sl'], [], [], []]);
    expect(h.fills.map((f) => `${f.side} ${f.price} ${f.tag}`)).toEqual(['BUY 10 entry', 'SELL 9.8 sl']);
    expect(h.view.position('BTCPHP')?.base).toBe('0');
    expect(h.openOrders()).toEqual([]);
    expect(helper().state).toMatchObject({ live: undefined, sent: undefined, leaving: undefined, since: undefined, high: undefined, stuck: undefined, hold: false });
  });

  it('covers the whole of a partly filled entry: placed on the first part, re-sized on each further part', () => {
    const { def } = guarded({ stopLoss: 0.02 }, { 0: [buy('2', { type: 'LIMIT', price: '100' })] });
    const h = harness(def);
    expect(h.bar(next([101])[0]!).map(said)).toEqual(['place BUY LIMIT 2 @100 entry']);
    expect(h.fill('entry', { qty: '0.5' }).map(said)).toEqual(['place SELL STOP_LOSS 0.5 @98 sl']);
    expect(h.fill('entry', { qty: '1' }).map(said)).toEqual(['cancelReplace sl -> STOP_LOSS 1.5 @98 sl']);
    expect(h.fill('entry').map(said)).toEqual(['cancelReplace sl -> STOP_LOSS 2 @98 sl']);
    expect(h.openOrders()).toMatchObject([{ tag: 'sl', quantity: '2', stopPrice: '98' }]);
    expect(h.denials).toEqual([]);
  });

  it('leaves dust alone (a part too small to sell), counting it as flat, until the position grows', () => {
    const { def, helper } = guarded({ stopLoss: 0.02 }, { 0: [buy('2', { type: 'LIMIT', price: '100' })] });
    const h = harness(def, { instruments: [testInstrument({ minNotional: '100' })] });
    h.bar(next([101])[0]!);
    // 0.5 is worth 50.5 at the last close, under the minimum notional: no stop could rest, no exit sell it.
    expect(h.fill('entry', { qty: '0.5' })).toEqual([]);
    expect(h.logs.map((l) => l.message)).toEqual(['exits: 0.5 BTCPHP cannot be sold, below the minimums at 101: left alone until the position changes']);
    expect(helper().state.stuck).toBe('0.5@100');
    expect(h.fill('entry').map(said)).toEqual(['place SELL STOP_LOSS 2 @98 sl']);
    expect(helper().state.stuck).toBeUndefined();
    expect(h.denials).toEqual([]);
  });

  it('follows a further entry: the stop is re-sized and moved to the new average entry', () => {
    const { def } = guarded({ stopLoss: 0.02 }, { 0: [buy('1')], 1: [buy('1')] });
    const h = harness(def);
    const bars = next([100, 110, 110]);
    expect(bars.map((b) => h.bar(b).map(said))).toEqual([
      ['place BUY MARKET 1 entry', 'place SELL STOP_LOSS 1 @98 sl'],
      // average 105: 102.9
      ['place BUY MARKET 1 entry', 'cancelReplace sl -> STOP_LOSS 2 @102.9 sl'],
      [],
    ]);
    expect(h.openOrders()).toMatchObject([{ tag: 'sl', quantity: '2', stopPrice: '102.9' }]);
  });

  it('a stop the venue rejects (the price already went past it) leaves at MARKET under its tag', () => {
    // The LIMIT entry at 100 fills as the bar falls through it to 90; the stop (98) reaches the
    // venue at the bar's close, 95, below it: "Order would trigger immediately."
    const { def, helper } = guarded({ stopLoss: 0.02 }, { 0: [buy('1', { type: 'LIMIT', price: '100' })] });
    const h = harness(def);
    const [first] = next([101]);
    h.bar(first!);
    const drop: Candle = { openTime: first!.closeTime + 1, closeTime: first!.closeTime + 60_000, open: 101, high: 101, low: 90, close: 95, volume: 1, exact: { open: '101', high: '101', low: '90', close: '95', volume: '1' } };
    expect(h.bar(drop).map(said)).toEqual(['place SELL STOP_LOSS 1 @98 sl', 'place SELL MARKET 1 sl']);
    expect(h.denials.map((d) => d.update?.status)).toEqual([]);
    expect(h.logs.map((l) => l.message)).toEqual(['exits: sl REJECTED (Order would trigger immediately. (-2010)): leaving at MARKET']);
    expect(h.fills.map((f) => `${f.side} ${f.price} ${f.tag}`)).toEqual(['BUY 100 entry', 'SELL 95 sl']);
    expect(h.view.position('BTCPHP')?.base).toBe('0');
    expect(helper().state.leaving).toBeUndefined();
  });

  it('a stop the pre-trade checks deny leaves at MARKET too', () => {
    // minNotional 100: 1 at 101 may be bought and sold at market, a stop of 1 at 98.98 may not rest.
    const { def } = guarded({ stopLoss: 0.02 }, { 0: [buy('1')] });
    const h = harness(def, { instruments: [testInstrument({ minNotional: '100' })] });
    expect(h.bar(next([101])[0]!).map(said)).toEqual(['place BUY MARKET 1 entry', 'place SELL STOP_LOSS 1 @98.98 sl', 'place SELL MARKET 1 sl']);
    expect(h.denials.map((d) => `${d.tag} ${d.update?.status}`)).toEqual(['sl DENIED']);
    expect(h.fills.map((f) => `${f.side} ${f.price} ${f.tag}`)).toEqual(['BUY 101 entry', 'SELL 101 sl']);
  });

  it('leaves a remainder above LOT_SIZE maxQty at MARKET after the stop fills, in pieces, until flat', () => {
    const { def } = guarded({ stopLoss: 0.02 }, { 0: [buy('40'), buy('40'), buy('20')] });
    const h = harness(def, { instruments: [testInstrument({ minNotional: '1', maxQty: '40' })] });
    const bars = next([10, 10, 9]);
    const out = bars.map((b) => h.bar(b).map(said));
    expect(out[0]).toEqual(['place BUY MARKET 40 entry', 'place BUY MARKET 40 entry', 'place BUY MARKET 20 entry', 'place SELL STOP_LOSS 40 @9.8 sl']);
    expect(out[2]).toEqual(['place SELL MARKET 40 sl', 'place SELL MARKET 20 sl']);
    expect(h.fills.filter((f) => f.side === 'SELL').map((f) => `${f.qty}@${f.price} ${f.tag}`)).toEqual(['40@9.8 sl', '40@9 sl', '20@9 sl']);
    expect(h.view.position('BTCPHP')?.base).toBe('0');
    expect(h.denials).toEqual([]);
  });
});

describe('exits(): take-profit, trailing stop, time limit', () => {
  it('take-profit: a close at the target turns the stop into a MARKET exit (one order locks the base)', () => {
    const { def, helper } = guarded({ stopLoss: 0.02, takeProfit: 0.03 }, { 0: [buy('1')] });
    const h = harness(def);
    const bars = next([100, 102.99, 103, 104]);
    expect(bars.map((b) => h.bar(b).map(said))).toEqual([['place BUY MARKET 1 entry', 'place SELL STOP_LOSS 1 @98 sl'], [], ['cancelReplace sl -> MARKET 1 tp'], []]);
    expect(h.fills.map((f) => `${f.side} ${f.price} ${f.tag}`)).toEqual(['BUY 100 entry', 'SELL 103 tp']);
    expect(h.denials).toEqual([]);
    expect(helper().state.live).toBeUndefined();
  });

  it('trailing: from the activation on, each new highest close raises the stop; it never lowers it', () => {
    const { def } = guarded({ stopLoss: 0.05, trailingStop: { activation: 0.01, distance: 0.02 } }, { 0: [buy('1')] });
    const h = harness(def);
    // Entry 100 (stop 95). 100.5 is under the activation (101); 101 starts it: 98.98; 103: 100.94;
    // 102 is no new high; 104: 101.92; the fall to 101 trades through 101.92.
    const bars = next([100, 100.5, 101, 103, 102, 104, 101]);
    expect(bars.map((b) => h.bar(b).map(said))).toEqual([
      ['place BUY MARKET 1 entry', 'place SELL STOP_LOSS 1 @95 sl'],
      [],
      ['cancelReplace sl -> STOP_LOSS 1 @98.98 trail'],
      ['cancelReplace trail -> STOP_LOSS 1 @100.94 trail'],
      [],
      ['cancelReplace trail -> STOP_LOSS 1 @101.92 trail'],
      [],
    ]);
    expect(h.fills.map((f) => `${f.side} ${f.price} ${f.tag}`)).toEqual(['BUY 100 entry', 'SELL 101.92 trail']);
    expect(h.denials).toEqual([]);
  });

  it('trailing keeps the stop-loss while the trailing level is below it', () => {
    const { def } = guarded({ stopLoss: 0.02, trailingStop: { activation: 0, distance: 0.05 } }, { 0: [buy('1')] });
    const h = harness(def);
    // 0.95 * 102 = 96.9 < 98; 0.95 * 104 = 98.8 > 98.
    const bars = next([100, 102, 104]);
    expect(bars.map((b) => h.bar(b).map(said))).toEqual([['place BUY MARKET 1 entry', 'place SELL STOP_LOSS 1 @98 sl'], [], ['cancelReplace sl -> STOP_LOSS 1 @98.8 trail']]);
  });

  it('time limit: a bar closing timeLimitMs after the entry fill leaves at MARKET', () => {
    const { def } = guarded({ stopLoss: 0.02, timeLimitMs: 3 * 60_000 }, { 0: [buy('1')] });
    const h = harness(def);
    // Filled at the first bar's close; the fourth bar closes 3 minutes later.
    const bars = next([100, 100, 100, 100.5, 100]);
    expect(bars.map((b) => h.bar(b).map(said))).toEqual([['place BUY MARKET 1 entry', 'place SELL STOP_LOSS 1 @98 sl'], [], [], ['cancelReplace sl -> MARKET 1 time'], []]);
    expect(h.fills.map((f) => `${f.side} ${f.price} ${f.tag}`)).toEqual(['BUY 100 entry', 'SELL 100.5 time']);
  });

  it('names its orders with the tag prefix', () => {
    const { def, helper } = guarded({ stopLoss: 0.02, takeProfit: 0.01, tagPrefix: 'x-' }, { 0: [buy('1')] });
    const h = harness(def);
    expect(next([100, 101]).flatMap((b) => h.bar(b).map(said))).toEqual(['place BUY MARKET 1 entry', 'place SELL STOP_LOSS 1 @98 x-sl', 'cancelReplace x-sl -> MARKET 1 x-tp']);
    expect(helper().tags).toEqual({ sl: 'x-sl', tp: 'x-tp', trail: 'x-trail', time: 'x-time' });
    expect(helper().owns('sl')).toBe(false);
  });
});

describe('exits(): one command at a time, and positions changed from outside', () => {
  /** The runner on a fake account: nothing is answered unless the test says so. */
  function bare(config: ExitsConfig) {
    const { def, helper } = guarded(config);
    const view = new FakeStateView({ instruments: [testInstrument({ minNotional: '1' })] });
    const runner = new StrategyRunner(def, { state: view });
    runner.start();
    let bars = next([100]);
    const bar = (close: number) => {
      bars = next([bars.at(-1)!.close, close], bars.at(-1));
      const b = bars.at(-1)!;
      view.time = b.closeTime + 1;
      return runner.bar('BTCPHP', '1m', b).map(said);
    };
    const update = (tag: string, clientOrderId: string, status: 'NEW' | 'CANCELED' | 'FILLED' | 'REJECTED', type: 'STOP_LOSS' | 'MARKET' = 'STOP_LOSS') =>
      runner.orderUpdate({ symbol: 'BTCPHP', clientOrderId, tag, side: 'SELL', type, status, executedQty: '0', cumulativeQuoteQty: '0', time: view.time }).map(said);
    const fill = (tag: string, side: 'BUY' | 'SELL', qty: string, price: string) =>
      runner.fill({ symbol: 'BTCPHP', clientOrderId: `c-${tag}`, tag, orderId: '1', tradeId: '1', side, price, qty, quoteQty: '0', commission: '0', commissionAsset: 'PHP', isMaker: false, orderStatus: 'FILLED', cumulativeQty: qty, time: view.time }).map(said);
    return { view, runner, bar, update, fill, helper };
  }

  it('sends nothing more while its exit is unanswered, then acts on what was decided meanwhile', () => {
    const t = bare({ stopLoss: 0.02, takeProfit: 0.01 });
    t.view.setPosition('BTCPHP', '1', '100');
    expect(t.fill('entry', 'BUY', '1', '100')).toEqual(['place SELL STOP_LOSS 1 @98 sl']);
    // Not acknowledged yet: the target is reached, but nothing is sent until the stop is known.
    expect(t.bar(102)).toEqual([]);
    expect(t.helper().state.leaving).toBe('tp');
    expect(t.update('sl', 's1', 'NEW')).toEqual(['cancelReplace sl -> MARKET 1 tp']);
    // The exit is out: later bars send no second one.
    expect(t.bar(103)).toEqual([]);
    expect(t.bar(104)).toEqual([]);
    expect(t.update('sl', 's1', 'CANCELED')).toEqual([]);
    expect(t.update('tp', 't1', 'NEW', 'MARKET')).toEqual([]);
    t.view.setPosition('BTCPHP', '0');
    expect(t.update('tp', 't1', 'FILLED', 'MARKET')).toEqual([]);
    expect(t.helper().state.leaving).toBeUndefined();
    expect(t.runner.failure).toBeUndefined();
  });

  it('re-sizes the stop when the position changes by something else, and takes it away when it goes flat', () => {
    const t = bare({ stopLoss: 0.02 });
    t.view.setPosition('BTCPHP', '2', '100');
    expect(t.fill('entry', 'BUY', '2', '100')).toEqual(['place SELL STOP_LOSS 2 @98 sl']);
    expect(t.update('sl', 's1', 'NEW')).toEqual([]);
    t.view.setPosition('BTCPHP', '1.5', '100');
    expect(t.fill('other', 'SELL', '0.5', '101')).toEqual(['cancelReplace sl -> STOP_LOSS 1.5 @98 sl']);
    expect(t.update('sl', 's1', 'CANCELED')).toEqual([]);
    expect(t.update('sl', 's2', 'NEW')).toEqual([]);
    t.view.setPosition('BTCPHP', '0');
    expect(t.bar(101)).toEqual(['cancel sl']);
    expect(t.update('sl', 's2', 'CANCELED')).toEqual([]);
    expect(t.helper().state.live).toBeUndefined();
    expect(t.bar(101)).toEqual([]);
  });

  it('puts back a stop cancelled by someone else', () => {
    const t = bare({ stopLoss: 0.02 });
    t.view.setPosition('BTCPHP', '1', '100');
    t.fill('entry', 'BUY', '1', '100');
    t.update('sl', 's1', 'NEW');
    expect(t.update('sl', 's1', 'CANCELED')).toEqual(['place SELL STOP_LOSS 1 @98 sl']);
  });

  it('catches up when a replace finds its stop gone (filled meanwhile)', () => {
    const t = bare({ stopLoss: 0.02, takeProfit: 0.01 });
    t.view.setPosition('BTCPHP', '1', '100');
    t.fill('entry', 'BUY', '1', '100');
    t.update('sl', 's1', 'NEW');
    expect(t.bar(101)).toEqual(['cancelReplace sl -> MARKET 1 tp']);
    t.view.setPosition('BTCPHP', '0');
    expect(t.runner.denial({ intent: 'cancelReplace', symbol: 'BTCPHP', tag: 'sl', clientOrderId: undefined, reasons: ['no open order'], time: t.view.time }).map(said)).toEqual([]);
    expect(t.helper().state).toMatchObject({ live: undefined, sent: undefined, leaving: undefined });
  });

  it('leaves alone a position its MARKET exit cannot sell, until the position changes', () => {
    const t = bare({ stopLoss: 0.02, takeProfit: 0.01 });
    t.view.setPosition('BTCPHP', '1', '100');
    t.fill('entry', 'BUY', '1', '100');
    expect(t.update('sl', 's1', 'REJECTED')).toEqual(['place SELL MARKET 1 sl']);
    expect(t.update('sl', 'm1', 'REJECTED', 'MARKET')).toEqual([]);
    expect(t.bar(99)).toEqual([]);
    expect(t.helper().state.stuck).toBe('1@100');
    expect(t.runner.failure).toBeUndefined();
    t.view.setPosition('BTCPHP', '2', '100');
    expect(t.bar(99)).toEqual(['place SELL MARKET 2 sl']);
  });

  it('takes nothing to do with other symbols or tags', () => {
    const t = bare({ stopLoss: 0.02 });
    expect(t.update('entry', 'e1', 'NEW')).toEqual([]);
    expect(t.bar(100)).toEqual([]);
  });
});

describe('exits(): config', () => {
  it('is checked, each problem naming its field', () => {
    const bad = (config: unknown) => () => exits(config as ExitsConfig);
    expect(bad({ stopLoss: 1 })).toThrow("exits(): 'stopLoss' must be a fraction of the average entry price > 0 and < 1 (0.02: the stop 2% under it), got number 1");
    expect(bad({})).toThrow("'stopLoss' must be a fraction of the average entry price > 0 and < 1 (0.02: the stop 2% under it), got nothing");
    expect(bad({ stopLoss: '0.02' })).toThrow('got "0.02"');
    expect(bad({ stopLoss: 0.02, takeProfit: 0 })).toThrow("'takeProfit' must be a fraction of the average entry price > 0 (0.03: leave 3% over it), got number 0");
    expect(bad({ stopLoss: 0.02, trailingStop: { activation: -0.01, distance: 1 } })).toThrow(
      "exits(): 'trailingStop.activation' must be a fraction >= 0 over the average entry price at which trailing starts, got number -0.01; 'trailingStop.distance' must be a fraction > 0 and < 1 under the highest close the stop follows, got number 1",
    );
    expect(bad({ stopLoss: 0.02, trailingStop: { activation: 0.01, distance: 0.01, step: 1 } })).toThrow("unknown option 'trailingStop.step' (known: activation, distance)");
    expect(bad({ stopLoss: 0.02, timeLimitMs: 1.5 })).toThrow("'timeLimitMs' must be a whole number of milliseconds > 0, got number 1.5");
    expect(bad({ stopLoss: 0.02, tagPrefix: 'way-too-long-prefix' })).toThrow("'tagPrefix' must be up to 15 characters");
    expect(bad({ stoploss: 0.02, stopLoss: 0.02 })).toThrow("unknown option 'stoploss' (known: stopLoss, takeProfit, trailingStop, timeLimitMs, tagPrefix, symbol)");
    expect(bad(undefined)).toThrow('exits(): expected a config object such as { stopLoss: 0.02 }, got nothing');
    expect(bad({ stopLoss: Infinity })).toThrow(ExitsConfigError);
  });

  it('made in state() with a bad config stops the strategy at its start, saying why', () => {
    const { def } = guarded({ stopLoss: 2 });
    const runner = new StrategyRunner(def, { state: new FakeStateView({ instruments: [testInstrument()] }) });
    runner.start();
    expect(runner.failure?.message).toContain("'stopLoss' must be a fraction");
  });
});
