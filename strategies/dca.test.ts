import { describe, expect, it } from 'vitest';
import { runOnRegime, slowDown } from '../src/strategy/testing/index.ts';
import dca from './dca.ts';

const HOUR = 3_600_000;

describe('dca', () => {
  it('buys the quote amount at market at every due time, filled at the open of the bar starting then', () => {
    // 600 one-minute bars from 00:00: the timer is due at 01:00 ... 10:00; the last is the end of the data, with no bar left to fill it.
    const { intents, fills, run, logs } = runOnRegime(dca, 'slowDown', { everyMinutes: 60, quoteAmount: '1000' }, { bars: 600 });
    expect(run.strategyFailures).toEqual([]);
    expect(intents.map((r) => (r.time - run.from) / HOUR)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(intents[0]?.intent).toEqual({ kind: 'place', symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quoteOrderQty: '1000', tag: 'dca' });
    expect(fills.map((f) => f.time)).toEqual(intents.slice(0, 9).map((r) => r.time));
    const opens = new Map(slowDown(1, 600).map((b) => [b.openTime, b.open]));
    for (const f of fills) expect([f.side, Number(f.price)]).toEqual(['BUY', opens.get(f.time)]);
    expect(run.trades).toEqual([]); // it never sells: the buys are the open position
    expect(run.openTrade?.entryTag).toBe('dca');
    expect(logs).toEqual([]);
  });

  it('stops at maxBuys, and once the quote balance cannot pay for another buy, saying so once', () => {
    expect(runOnRegime(dca, 'flat', { everyMinutes: 5, quoteAmount: '1000', maxBuys: 3 }, { bars: 100 }).fills).toHaveLength(3);
    const poor = runOnRegime(dca, 'flat', { everyMinutes: 5, quoteAmount: '1000' }, { bars: 100, balances: { PHP: '2500' } });
    expect(poor.fills).toHaveLength(2);
    expect(poor.logs.map((l) => l.message)).toEqual(['quote balance below quoteAmount: no more buys']);
  });
});
