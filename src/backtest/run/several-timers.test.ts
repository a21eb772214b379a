/**
 * Timers in a run of several symbols (run-several.ts, play-period.ts) fire at their due times
 * inside the period, as in a one-symbol run (backtest-timers.test.ts): after every symbol's path
 * points before the due time, before every symbol's points at or after it, seeing only bars that
 * closed before it. Before, they fired once a period, after its bars: a 20-second timer ran once
 * a minute, and a fill at 10:40 of one symbol was known to a timer "at" 10:30.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { candleFromText } from '../../core/indicators/candle.ts';
import type { Candle } from '../../core/indicators/candle.ts';
import { resampleBars } from '../../data/resample.ts';
import { defineStrategy } from '../../strategy/define.ts';
import { place } from '../../strategy/intents/intents.ts';
import type { IntentInput } from '../../strategy/intents/intents.ts';
import type { Interval } from '../../strategy/types.ts';
import { runBacktest } from './run-backtest.ts';
import type { BacktestBar } from '../types.ts';
import { btc, eth, MIN, T0 } from './several-test-support.ts';

const secs = (t: number) => (t - T0) / 1000;
/** Minute i's bar. Its path (fill-model.ts): open at +0s, then low and high (an up bar) or high and low at +20s and +40s, close at +59.999s. */
const bar = (i: number, open: string, high: string, low: string, close: string): BacktestBar => ({ openTime: T0 + i * MIN, closeTime: T0 + (i + 1) * MIN - 1, open, high, low, close, volume: '100' });
const flat = (i: number, p: string) => bar(i, p, p, p, p);

/**
 * Logs every bar, timer and fill with the clock; a timer line says how many bars of each symbol
 * it could read and the open time of the last. `onTimer` returns what the test asks at a time.
 */
function timed(timerMs: number, log: string[], onTimer: (time: number) => IntentInput[] | undefined = () => undefined, { symbols = ['BTCPHP', 'ETHPHP'], interval = '1m' }: { symbols?: string[]; interval?: Interval } = {}) {
  return defineStrategy({
    name: 'timed',
    params: z.object({}),
    symbols,
    intervals: [interval],
    timerMs,
    onBar: (ctx, b) => void log.push(`bar ${b.symbol}@${(b.openTime - T0) / MIN} t+${secs(ctx.now())}s`),
    onTimer(ctx, time) {
      const seen = symbols.map((s) => {
        const bars = ctx.bars(s);
        const last = bars.last;
        // A bar read by a timer has closed by then: never one closing after it.
        if (last !== undefined && last.closeTime >= time) throw new Error(`the timer at t+${secs(time)}s reads ${s}'s bar closing at t+${secs(last.closeTime)}s`);
        return `${s} ${bars.count}${last === undefined ? '' : `@${(last.openTime - T0) / MIN}`}`;
      });
      log.push(`timer t+${secs(time)}s now t+${secs(ctx.now())}s sees ${seen.join(' ')}`);
      return onTimer(time);
    },
    onFill: (ctx, f) => void log.push(`fill ${f.symbol} ${f.side} ${f.qty.toFixed()}@${f.price.toFixed()} t+${secs(ctx.now())}s`),
  });
}

const run = (strategy: ReturnType<typeof timed>, b: (BacktestBar | Candle)[], e: (BacktestBar | Candle)[], over: { interval?: string; detailed?: boolean; balances?: Record<string, string> } = {}) =>
  runBacktest({
    strategy,
    interval: over.interval ?? '1m',
    symbols: [
      { symbol: 'BTCPHP', bars: b, instrument: btc },
      { symbol: 'ETHPHP', bars: e, instrument: eth },
    ],
    fees: { maker: '0', taker: '0' },
    balances: over.balances ?? { PHP: '10000' },
    ...(over.detailed === true ? { detailed: true } : {}),
  });

describe('timers in a run of several symbols', () => {
  it('fire at every due time inside the periods, on the clock of that time, reading only the bars closed before it', () => {
    const log: string[] = [];
    run(timed(20_000, log), [flat(0, '100'), flat(1, '101')], [flat(0, '50'), flat(1, '51')]);
    expect(log).toEqual([
      'timer t+20s now t+20s sees BTCPHP 0 ETHPHP 0',
      'timer t+40s now t+40s sees BTCPHP 0 ETHPHP 0',
      'bar BTCPHP@0 t+60s',
      'bar ETHPHP@0 t+60s',
      'timer t+60s now t+60s sees BTCPHP 1@0 ETHPHP 1@0',
      'timer t+80s now t+80s sees BTCPHP 1@0 ETHPHP 1@0',
      'timer t+100s now t+100s sees BTCPHP 1@0 ETHPHP 1@0',
      'bar BTCPHP@1 t+120s',
      'bar ETHPHP@1 t+120s',
      'timer t+120s now t+120s sees BTCPHP 2@1 ETHPHP 2@1',
    ]);
  });

  it("comes after every symbol's points before it and before every symbol's points after it; what it sends fills at its symbol's next point", () => {
    const log: string[] = [];
    // At t+30s: a BTCPHP buy below the market and a sell above it. At t+90s: an ETHPHP MARKET buy.
    const orders = (time: number): IntentInput[] | undefined => {
      if (secs(time) === 30) {
        return [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '96' }), place({ symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '104' })];
      }
      return secs(time) === 90 ? [place({ symbol: 'ETHPHP', side: 'BUY', type: 'MARKET', quantity: '1' })] : undefined;
    };
    // Minute 1 goes up for both: BTCPHP low 95 at t+80s, high 105 at t+100s; ETHPHP low 49, high 55.
    const r = run(timed(30_000, log, orders), [flat(0, '100'), bar(1, '100', '105', '95', '102')], [flat(0, '50'), bar(1, '50', '55', '49', '52')], { balances: { PHP: '10000', BTC: '1' } });
    const events = log.filter((l) => !l.startsWith('bar'));
    // BTCPHP (the first symbol) trades through 104 at t+100s, but only after the timer at t+90s:
    // that timer knows the fill at t+80s and not the one at t+100s.
    expect(events).toEqual([
      'timer t+30s now t+30s sees BTCPHP 0 ETHPHP 0',
      'timer t+60s now t+60s sees BTCPHP 1@0 ETHPHP 1@0',
      'fill BTCPHP BUY 1@96 t+80s',
      'timer t+90s now t+90s sees BTCPHP 1@0 ETHPHP 1@0',
      'fill BTCPHP SELL 1@104 t+100s',
      'fill ETHPHP BUY 1@55 t+100s',
      'timer t+120s now t+120s sees BTCPHP 2@1 ETHPHP 2@1',
    ]);
    expect(r.fills.map((f) => [f.symbol, f.side, f.price, secs(f.time)])).toEqual([
      ['BTCPHP', 'BUY', '96', 80],
      ['BTCPHP', 'SELL', '104', 100],
      ['ETHPHP', 'BUY', '55', 100],
    ]);
  });

  it('trade a symbol as a one-symbol run of it does: the same fills at the same prices and times', () => {
    const trade = (time: number): IntentInput[] | undefined => (secs(time) % 90 === 0 ? [place({ symbol: 'BTCPHP', side: secs(time) % 180 === 0 ? 'SELL' : 'BUY', type: 'MARKET', quantity: '1' })] : undefined);
    const b = [flat(0, '100'), bar(1, '100', '110', '98', '105'), bar(2, '105', '106', '99', '100'), bar(3, '100', '104', '97', '103'), flat(4, '103')];
    const e = b.map((x) => ({ ...x, open: '50', high: '50', low: '50', close: '50' }));
    const several = run(timed(30_000, [], trade), b, e, { balances: { PHP: '10000', BTC: '2' } });
    const one = runBacktest({ strategy: timed(30_000, [], trade, { symbols: ['BTCPHP'] }), symbol: 'BTCPHP', interval: '1m', bars: b, instrument: btc, fees: { maker: '0', taker: '0' }, balances: { PHP: '10000', BTC: '2' } });
    const fills = (r: typeof one) => r.fills.map((f) => [f.side, f.price, secs(f.time)]);
    expect(fills(several)).toEqual(fills(one));
    expect(fills(one).length).toBeGreaterThan(2);
  });

  it('fire in time order inside detailed bars too: the venue plays the shorter bars, the timer cuts the one it falls in', () => {
    const log: string[] = [];
    const minutes = (p: number[]) => p.map((c, i) => candleFromText(T0 + i * MIN, T0 + (i + 1) * MIN - 1, { open: String(c), high: String(c + 2), low: String(c - 2), close: String(c), volume: '10' }));
    const three = (p: number[]) => [...resampleBars(minutes(p), '3m', { detail: true })];
    const orders = (time: number): IntentInput[] | undefined => (secs(time) === 90 ? [place({ symbol: 'ETHPHP', side: 'BUY', type: 'MARKET', quantity: '1' })] : undefined);
    const r = run(timed(30_000, log, orders, { interval: '3m' }), three([100, 101, 102, 103, 104, 105]), three([50, 51, 52, 53, 54, 55]), { interval: '3m', detailed: true });
    // t+90s falls in the second minute of the first 3m bar: the buy fills at that minute's next
    // point, its high at t+100s (51 + 2); the 3m bar's own path would have filled it at its close.
    expect(log.filter((l) => !l.startsWith('timer') || l.startsWith('timer t+90s'))).toEqual([
      'timer t+90s now t+90s sees BTCPHP 0 ETHPHP 0',
      'fill ETHPHP BUY 1@53 t+100s',
      'bar BTCPHP@0 t+180s',
      'bar ETHPHP@0 t+180s',
      'bar BTCPHP@3 t+360s',
      'bar ETHPHP@3 t+360s',
    ]);
    expect(r.fills.map((f) => [f.price, secs(f.time)])).toEqual([['53', 100]]);
    expect(log.filter((l) => l.startsWith('timer'))).toHaveLength(12);
  });

  it('bars missing from every symbol between two periods are one timer call at the next open with the latest due time, as for one symbol', () => {
    const log: string[] = [];
    run(timed(60_000, log), [flat(0, '100'), flat(5, '100')], [flat(0, '50'), flat(5, '50')]);
    expect(log.filter((l) => l.startsWith('timer')).map((l) => l.split(' now')[0])).toEqual(['timer t+60s', 'timer t+300s', 'timer t+360s']);
  });

  it('give the same run for the same input', () => {
    const once = () => JSON.stringify(run(timed(20_000, []), [flat(0, '100'), flat(1, '101')], [flat(0, '50'), flat(1, '51')]));
    expect(once()).toBe(once());
  });
});
