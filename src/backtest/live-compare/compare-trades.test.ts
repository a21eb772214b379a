/**
 * The pairing and the explanations on hand-made trades: each fill-model rule that accounts for a
 * difference (MARKET at the next open, a partial fill, a volume cap, a quote-sized order, a
 * touched limit, fees of the other role, the data's edges, a knock-on), and the cases where none
 * does (a fill bars late, a price outside the bar, the same role at another rate).
 */
import { describe, expect, it } from 'vitest';
import { resolveFillModel } from '../run/fill-model.ts';
import { BarIndex, type RecordedBar } from './bars.ts';
import { compareTrades } from './compare-trades.ts';
import type { ExplainContext } from './explain-context.ts';
import { matchTrades } from './match.ts';
import type { Trade, TradeFill, TradePair } from './types.ts';

const T0 = Date.parse('2024-03-13T10:00:00Z');
const MIN = 60_000;

/** Bar i of a 1m series: open, high, low, close. */
function bar(i: number, open: string, high: string, low: string, close: string): RecordedBar {
  return { openTime: T0 + i * MIN, closeTime: T0 + (i + 1) * MIN - 1, open, high, low, close, volume: '10' };
}

const BARS = [bar(0, '100', '101', '99', '100.5'), bar(1, '100.5', '102', '100', '101'), bar(2, '101', '101.5', '100.2', '100.8'), bar(3, '100.8', '101', '99.5', '100')];

function ctx(over: Partial<ExplainContext> = {}): ExplainContext {
  return { bars: new BarIndex(new Map([['BTCPHP', BARS]])), fillModel: resolveFillModel(), fees: { maker: '0.001', taker: '0.001' }, baseAsset: () => 'BTC', ...over };
}

function fill(time: number, price: string, qty: string, o: Partial<TradeFill> = {}): TradeFill {
  const quoteQty = (Number(price) * Number(qty)).toFixed(8).replace(/\.?0+$/, '');
  return { time, price, qty, quoteQty, commission: (Number(qty) * 0.001).toFixed(10).replace(/\.?0+$/, ''), commissionAsset: 'BTC', isMaker: false, ...o };
}

function trade(cid: string, fills: TradeFill[], o: Partial<Trade> = {}): Trade {
  return { strategy: 's', symbol: 'BTCPHP', clientOrderId: cid, tag: 'entry', side: 'BUY', type: 'MARKET', origQty: '1', status: 'FILLED', placedAt: T0 + MIN + 5, fills, ...o };
}

const run = (live: Trade[], backtest: Trade[], c = ctx()): TradePair[] => compareTrades({ strategy: 's', live, backtest, toleranceMs: 2 * MIN, ctx: c });
const kinds = (p: TradePair) => p.differences.map((d) => [d.kind, d.explanation?.rule ?? 'UNEXPLAINED']);

describe('live against backtest: pairing', () => {
  it('pairs twins by client order id; the same fills make no difference', () => {
    const pairs = run([trade('a', [fill(T0 + MIN, '100.5', '1')])], [trade('a', [fill(T0 + MIN, '100.5', '1')])]);
    expect(pairs).toHaveLength(1);
    expect(pairs[0]).toMatchObject({ pairedBy: 'client-order-id', differences: [] });
  });

  it('pairs other ids by symbol, side and tag within the tolerance, nearest first; beyond it each is missing on the other side', () => {
    const live = [trade('l1', [fill(T0 + MIN + 300, '100.6', '1')]), trade('l2', [fill(T0 + 3 * MIN + 300, '100.9', '1')])];
    const bt = [trade('b1', [fill(T0 + MIN, '100.5', '1')]), trade('b2', [fill(T0 + 3 * MIN, '100.8', '1')])];
    const m = matchTrades(live, bt, 2 * MIN);
    expect(m.map((p) => [p.live?.clientOrderId, p.backtest?.clientOrderId, p.pairedBy])).toEqual([
      ['l1', 'b1', 'nearest'],
      ['l2', 'b2', 'nearest'],
    ]);
    const far = matchTrades([live[0]!], [trade('b9', [fill(T0 + 10 * MIN, '100', '1')])], 2 * MIN);
    expect(far.map((p) => [p.live?.clientOrderId, p.backtest?.clientOrderId])).toEqual([
      ['l1', undefined],
      [undefined, 'b9'],
    ]);
    // Another side or tag never pairs.
    expect(matchTrades([live[0]!], [trade('b1', [fill(T0 + MIN, '100.5', '1')], { side: 'SELL' })], 2 * MIN)).toHaveLength(2);
  });

  it('twins by id placed more than the tolerance apart are two decisions: each missing on the other side', () => {
    const m = matchTrades([trade('a', [fill(T0 + MIN, '100.5', '1')], { placedAt: T0 + MIN })], [trade('a', [fill(T0 + 10 * MIN, '100', '1')], { placedAt: T0 + 10 * MIN })], 2 * MIN);
    expect(m.map((p) => [p.live?.clientOrderId, p.backtest?.clientOrderId, p.pairedBy])).toEqual([
      ['a', undefined, undefined],
      [undefined, 'a', undefined],
    ]);
  });

  it('leaves out orders neither side filled', () => {
    expect(run([trade('a', [], { status: 'CANCELED' })], [trade('a', [])])).toEqual([]);
  });
});

describe('live against backtest: explanations', () => {
  it('MARKET: the backtest at the next open, live at the book inside that bar: time and price explained by market-next-open', () => {
    const [p] = run([trade('a', [fill(T0 + MIN + 250, '100.7', '0.6'), fill(T0 + MIN + 250, '100.8', '0.4')])], [trade('a', [fill(T0 + MIN, '100.5', '1')])]);
    expect(kinds(p!)).toEqual([
      ['time', 'market-next-open'],
      ['price', 'market-next-open'],
    ]);
    expect(p!.differences[1]!.detail).toBe('live 100.74 vs backtest 100.5 (+0.24 (+23.88 bps))');
    expect(p!.differences[0]!.detail).toBe('live 2024-03-13 10:01:00.250 UTC vs backtest 2024-03-13 10:01:00.000 UTC (+250 ms)');
    expect(p!.differences[1]!.explanation!.text).toBe("a MARKET order fills in the backtest at the next bar's open (100.5 at 2024-03-13 10:01:00.000 UTC); live took the book 250 ms into that bar at 100.74, within its range 100-102");
  });

  it('a live fill bars after the model fills, or at a price outside its bar, is unexplained', () => {
    const [late] = run([trade('a', [fill(T0 + 3 * MIN + 10, '100.5', '1')])], [trade('a', [fill(T0 + MIN, '100.5', '1')])]);
    expect(kinds(late!)).toEqual([['time', 'UNEXPLAINED']]);
    expect(late!.differences[0]!.unexplained).toContain('2 bar(s) after');
    const [outside] = run([trade('a', [fill(T0 + MIN + 10, '103', '1')])], [trade('a', [fill(T0 + MIN, '100.5', '1')])]);
    expect(kinds(outside!)).toEqual([
      ['time', 'UNEXPLAINED'],
      ['price', 'UNEXPLAINED'],
    ]);
    expect(outside!.differences[1]!.unexplained).toContain("outside its bar's range 100-102");
  });

  it('a partial fill live against the whole fill of the model; the model capped by volumeShare', () => {
    const [partial] = run([trade('a', [fill(T0 + MIN, '100.5', '0.4')], { status: 'EXPIRED' })], [trade('a', [fill(T0 + MIN, '100.5', '1')])]);
    expect(kinds(partial!)).toEqual([['quantity', 'partial-fill']]);
    expect(partial!.differences[0]!.explanation!.text).toContain('live filled 0.4 of 1 (EXPIRED)');
    const [capped] = run([trade('a', [fill(T0 + MIN, '100.5', '1')])], [trade('a', [fill(T0 + MIN, '100.5', '0.3')])], ctx({ fillModel: resolveFillModel({ volumeShare: 0.03 }) }));
    expect(kinds(capped!)).toEqual([['quantity', 'volume-share']]);
  });

  it('a quote-sized MARKET order: the quantity follows the explained price difference', () => {
    const q = { origQty: undefined, quoteOrderQty: '1000' };
    const [p] = run([trade('a', [fill(T0 + MIN + 100, '101', '9.9')], q)], [trade('a', [fill(T0 + MIN, '100.5', '9.95')], q)]);
    expect(kinds(p!)).toEqual([
      ['time', 'market-next-open'],
      ['price', 'market-next-open'],
      ['quantity', 'quote-sized'],
    ]);
  });

  it('a LIMIT the price touched without trading through: filled live, not by the model (limitFill through)', () => {
    const limit = { type: 'LIMIT', limitPrice: '100', placedAt: T0 + MIN + 5 };
    // Placed in bar 1, whose low is exactly 100: a touch; bar 2 stays above it.
    const onlyTouch = new BarIndex(new Map([['BTCPHP', [BARS[0]!, BARS[1]!, BARS[2]!]]]));
    const [p] = run([trade('a', [fill(T0 + MIN + 20_000, '100', '1', { isMaker: true })], limit)], [trade('a', [], limit)], ctx({ bars: onlyTouch }));
    expect(kinds(p!)).toEqual([['missing-in-backtest', 'limit-touched']]);
    // With bar 3 (low 99.5) the price traded through 100 after all: the model would have filled; not explained.
    const [through] = run([trade('a', [fill(T0 + MIN + 20_000, '100', '1', { isMaker: true })], limit)], [trade('a', [], limit)]);
    expect(kinds(through!)).toEqual([['missing-in-backtest', 'UNEXPLAINED']]);
  });

  it('fees: another role is explained, the same role at another rate is not', () => {
    const [role] = run([trade('a', [fill(T0 + MIN, '100.5', '1', { isMaker: true, commission: '0.0005' })], { type: 'LIMIT', limitPrice: '100.5' })], [trade('a', [fill(T0 + MIN, '100.5', '1')], { type: 'LIMIT', limitPrice: '100.5' })]);
    expect(kinds(role!).find(([k]) => k === 'fees')).toEqual(['fees', 'fees']);
    const [rate] = run([trade('a', [fill(T0 + MIN, '100.5', '1', { commission: '0.00075' })])], [trade('a', [fill(T0 + MIN, '100.5', '1')])]);
    expect(kinds(rate!)).toEqual([['fees', 'UNEXPLAINED']]);
    expect(rate!.differences[0]!.unexplained).toContain('--fee');
  });

  it("the data's edges: a live order after the last recorded bar, a replay fill after the live run stopped", () => {
    const [after] = run([trade('a', [fill(T0 + 4 * MIN + 10, '100', '1')], { placedAt: T0 + 4 * MIN + 5 })], []);
    expect(kinds(after!)).toEqual([['missing-in-backtest', 'end-of-data']]);
    const [stopped] = run([], [trade('a', [fill(T0 + 3 * MIN, '100.8', '1')])], ctx({ liveEnd: T0 + 3 * MIN - 100 }));
    expect(kinds(stopped!)).toEqual([['missing-live', 'end-of-data']]);
    const [plain] = run([], [trade('a', [fill(T0 + 2 * MIN, '101', '1')])]);
    expect(kinds(plain!)).toEqual([['missing-live', 'UNEXPLAINED']]);
  });

  it('between bars: a live order of a strategy acting on book tops, placed inside a bar or before the first closed, has no twin (rule 1)', () => {
    const c = ctx({ betweenBars: ['book tops (onBookTop)'] });
    const quote = (t: number) => trade('q', [fill(t + 500, '100', '1', { isMaker: true })], { type: 'LIMIT_MAKER', limitPrice: '100', tag: 'bid', placedAt: t });
    const [inside] = run([quote(T0 + 2 * MIN + 20_000)], [], c);
    expect(kinds(inside!)).toEqual([['missing-in-backtest', 'between-bars']]);
    expect(inside!.differences[0]!.explanation!.text).toContain('placed 20 s into a bar');
    const [first] = run([quote(T0 + 100)], [], c);
    expect(first!.differences[0]!.explanation!.text).toContain("before the run's first bar closed");
    // Right after a close it may be the bar's decision: not explained so; nor without such handlers.
    expect(kinds(run([quote(T0 + 2 * MIN + 50)], [], c)[0]!)).toEqual([['missing-in-backtest', 'UNEXPLAINED']]);
    expect(kinds(run([quote(T0 + 2 * MIN + 20_000)], [])[0]!)).toEqual([['missing-in-backtest', 'UNEXPLAINED']]);
  });

  it('two orders at different limit prices are two decisions: knock-on after an earlier difference, else unexplained', () => {
    const bid = (cid: string, price: string, t: number) => trade(cid, [fill(t, price, '1', { isMaker: true })], { type: 'LIMIT', limitPrice: price, placedAt: t - 1000 });
    const [alone] = run([bid('a', '100.2', T0 + 2 * MIN + 5000)], [bid('a', '100.3', T0 + 2 * MIN + 5000)]);
    expect(kinds(alone!)).toEqual([['price', 'UNEXPLAINED']]);
    expect(alone!.differences[0]!.unexplained).toContain('priced the order at 100.2 live and 100.3 in the backtest');
  });

  it('knock-on: an exit sized from a position an explained partial fill changed is explained; after an unexplained one it is not', () => {
    const entryLive = trade('e', [fill(T0 + MIN, '100.5', '0.4')], { status: 'EXPIRED' });
    const entryBt = trade('e', [fill(T0 + MIN, '100.5', '1')]);
    const exit = (qty: string, t: number) => trade('x', [fill(t, '100.8', qty)], { side: 'SELL', tag: 'exit', origQty: qty, placedAt: t });
    const pairs = run([entryLive, exit('0.4', T0 + 3 * MIN)], [entryBt, exit('1', T0 + 3 * MIN)]);
    expect(pairs.map(kinds)).toEqual([[['quantity', 'partial-fill']], [['quantity', 'knock-on']]]);
    expect(pairs[1]!.differences[0]!.explanation!.text).toContain('since trade #1');
    const unexplainedEntry = trade('e', [fill(T0 + MIN, '100.5', '0.4')], { origQty: '0.4' });
    const after = run([unexplainedEntry, exit('0.4', T0 + 3 * MIN)], [entryBt, exit('1', T0 + 3 * MIN)]);
    expect(after.map(kinds)).toEqual([[['quantity', 'UNEXPLAINED']], [['quantity', 'UNEXPLAINED']]]);
    expect(after[1]!.differences[0]!.unexplained).toContain('which is unexplained');
  });
});
