import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calmarRatio, computeMetrics, startEquityOf } from './metrics.ts';
import { metricsFromJson, metricsToJson } from './metrics-json.ts';
import { barReturns, cagrPct, curveFigures, maxDrawdownPct, maxDrawdownWindow, periodsPerYear, runSpanMs, sharpeRatio, sortinoRatio } from './metrics-returns.ts';
import { exposurePct, exposureThreshold, feesInQuote, profitFactor, statsByTag, tradeStats } from './metrics-trades.ts';
import { X40 } from '../../core/money/exact40.ts';
import type { BacktestFill, BacktestRun, EquityPoint, RoundTrip } from '../types.ts';

const DAY = 86_400_000;
const T0 = 1_704_067_200_000;

function fill(over: Partial<BacktestFill>): BacktestFill {
  return {
    time: T0,
    symbol: 'BTCUSDT',
    side: 'BUY',
    price: '100',
    qty: '1',
    quoteQty: '100',
    commission: '0',
    commissionAsset: 'USDT',
    orderId: '1',
    clientOrderId: 'c1',
    tradeId: '1',
    isMaker: false,
    ...over,
  };
}

function trade(pnl: string): RoundTrip {
  return { symbol: 'BTCUSDT', direction: 'LONG', entryTime: T0, exitTime: T0 + DAY, entryPrice: '100', exitPrice: '101', qty: '1', pnl, returnRatio: 0, fees: '0', barsHeld: 1 };
}

function run(over: Partial<BacktestRun> = {}): BacktestRun {
  return {
    strategy: 'test',
    params: {},
    symbol: 'BTCUSDT',
    interval: '1d',
    baseAsset: 'BTC',
    quoteAsset: 'USDT',
    from: T0,
    to: T0 + 4 * DAY,
    barCount: 4,
    startBalances: { USDT: '1000', BTC: '0' },
    endBalances: { USDT: '1089', BTC: '0' },
    fees: { maker: '0.001', taker: '0.001' },
    fillModel: {},
    fills: [],
    trades: [],
    equity: [],
    denials: [],
    strategyFailures: [],
    ...over,
  };
}

const points = (values: number[], positions: number[] = values.map(() => 0)): EquityPoint[] =>
  values.map((equity, i) => ({ time: T0 + (i + 1) * DAY - 1, equity, position: positions[i] ?? 0 }));

describe('computeMetrics on a hand-computed run', () => {
  // Daily bars; returns 0, +10%, -10%, +10%.
  const m = computeMetrics(
    run({
      equity: points([1000, 1100, 990, 1089], [0, 1, 1, 0]),
      trades: [trade('100'), trade('-10'), trade('5')],
      fills: [
        fill({ side: 'BUY', commission: '0.001', commissionAsset: 'BTC', price: '100', qty: '1.00' }),
        fill({ side: 'SELL', commission: '0.5', commissionAsset: 'USDT', price: '110', qty: '1' }),
      ],
    }),
  );

  it('gets equity, PnL and return', () => {
    expect(m.startEquity).toBe(1000);
    expect(m.endEquity).toBe(1089);
    expect(m.netPnl).toBeCloseTo(89, 10);
    expect(m.returnPct).toBeCloseTo(8.9, 10);
  });

  it('compounds CAGR over the run\'s span, from the first open to the last close (4 days)', () => {
    // The start equity sits before the first bar: 4 bars of a day are 4 days (the first close to the last is 3).
    expect(m.cagrPct).toBeCloseTo((1.089 ** (365 / 4) - 1) * 100, 6);
  });

  it('measures the drawdown from the 1100 peak to 990', () => {
    expect(m.maxDrawdownPct).toBeCloseTo(10, 10);
  });

  it('annualises per-bar Sharpe and Sortino by sqrt(365) for daily bars', () => {
    // mean 0.025; sample sd sqrt(0.0275 / 3); downside deviation sqrt(0.01 / 4) = 0.05.
    expect(m.sharpe).toBeCloseTo((0.025 / Math.sqrt(0.0275 / 3)) * Math.sqrt(365), 8);
    expect(m.sortino).toBeCloseTo((0.025 / 0.05) * Math.sqrt(365), 8);
  });

  it('counts wins, profit factor, fees in quote, exposure, trades and fills', () => {
    expect(m.winRatePct).toBeCloseTo(200 / 3, 10);
    expect(m.profitFactor).toBeCloseTo(10.5, 12);
    // 0.001 BTC at 100 = 0.1, plus 0.5 USDT.
    expect(m.feesPaid).toBeCloseTo(0.6, 12);
    expect(m.exposurePct).toBe(50);
    expect(m.trades).toBe(3);
    expect(m.fills).toBe(2);
  });
});

describe('computeMetrics edge cases', () => {
  const noNaN = (m: object) => Object.values(m).forEach((v) => expect(Number.isNaN(v)).toBe(false));

  it('a run with no bars and no trades is all zeros from the start equity', () => {
    const m = computeMetrics(run());
    noNaN(m);
    expect(m).toMatchObject({ startEquity: 1000, endEquity: 1000, netPnl: 0, cagrPct: 0, sharpe: 0, sortino: 0, winRatePct: 0, profitFactor: 0, exposurePct: 0, trades: 0 });
  });

  it('one bar has a return over its own span, so a CAGR, but no Sharpe', () => {
    const m = computeMetrics(run({ equity: points([1010]), to: T0 + DAY, barCount: 1 }));
    noNaN(m);
    expect(m.returnPct).toBeCloseTo(1, 10);
    expect(m.cagrPct).toBeCloseTo((1.01 ** 365 - 1) * 100, 6);
    expect(m.sharpe).toBe(0);
  });

  it('CAGR annualises the return over run.to - run.from, the span the summary\'s n/a-under-30-days reads', () => {
    // +21% over 3 daily bars is 3 days of growth, not 2.
    const three = computeMetrics(run({ equity: points([105, 110, 121].map((x) => x * 10)), to: T0 + 3 * DAY, barCount: 3 }));
    expect(three.cagrPct / ((1.21 ** (365 / 3) - 1) * 100)).toBeCloseTo(1, 12);
    expect(three.cagrPct).toBe(cagrPct(1000, 1210, runSpanMs({ from: T0, to: T0 + 3 * DAY })));
    // A run of a year of daily bars compounds over exactly a year.
    const year = Array.from({ length: 365 }, (_, i) => 1000 + (i + 1) * (100 / 365));
    year[364] = 1100;
    expect(computeMetrics(run({ equity: points(year), to: T0 + 365 * DAY, barCount: 365 })).cagrPct).toBeCloseTo(10, 9);
    expect(runSpanMs({ from: T0, to: T0 })).toBe(0);
  });

  it('flat equity gives zero ratios and drawdown, never NaN', () => {
    const m = computeMetrics(run({ equity: points([1000, 1000, 1000, 1000]) }));
    noNaN(m);
    expect(m).toMatchObject({ netPnl: 0, maxDrawdownPct: 0, sharpe: 0, sortino: 0, cagrPct: 0 });
  });

  it('only winning trades give an infinite profit factor, written as "Infinity" in JSON', () => {
    const m = computeMetrics(run({ equity: points([1000, 1010, 1020]), trades: [trade('10'), trade('10')] }));
    expect(m.profitFactor).toBe(Infinity);
    expect(m.sortino).toBe(Infinity);
    const json = JSON.parse(JSON.stringify(metricsToJson(m))) as ReturnType<typeof metricsToJson>;
    expect(json.profitFactor).toBe('Infinity');
    expect(metricsFromJson(json).profitFactor).toBe(Infinity);
  });

  it('only losing trades give a profit factor of 0', () => {
    expect(computeMetrics(run({ trades: [trade('-1')] })).profitFactor).toBe(0);
  });

  it('dust below the minimum quantity left by a base commission is not exposure', () => {
    const m = computeMetrics(run({ equity: points([1000, 1000, 1000, 1000], [0, 0.01, 0.00001, 0.00001]), lot: { minQty: '0.01', stepSize: '0.001' }, fills: [fill({ qty: '0.010' })] }));
    expect(m.exposurePct).toBe(25);
  });

  it('exposure counts bars holding at least LOT_SIZE minQty (the step when minQty is 0), not a grid read off the fills', () => {
    // Fills of whole units ("1") once gave a threshold of ~1: a position of 0.998 read 0%.
    const held = { equity: points([1000, 1000, 1000, 1000], [0, 0.998, 0.998, 0.998]), fills: [fill({ qty: '1' })] };
    expect(computeMetrics(run({ ...held, lot: { minQty: '0.001', stepSize: '0.001' } })).exposurePct).toBe(75);
    expect(computeMetrics(run({ ...held, lot: { minQty: '0', stepSize: '0.5' } })).exposurePct).toBe(75);
    expect(computeMetrics(run({ ...held, lot: { minQty: '1', stepSize: '0.001' } })).exposurePct).toBe(0);
    // A position of exactly the minimum counts, float noise below it too.
    expect(exposureThreshold({ minQty: '0.1', stepSize: '0.1' })).toBeLessThanOrEqual(0.3 - 0.2);
  });

  it('without the symbol\'s LOT_SIZE (a run made by hand, or JSON written before runs carried it) any non-zero position is exposure', () => {
    expect(exposureThreshold(undefined)).toBe(Number.MIN_VALUE);
    expect(exposureThreshold({ minQty: '0', stepSize: '0' })).toBe(Number.MIN_VALUE);
    expect(computeMetrics(run({ equity: points([1000, 1000, 1000, 1000], [0, 0.998, 1e-9, 0]), fills: [fill({ qty: '1' })] })).exposurePct).toBe(50);
  });

  it('values base held at the start at the first bar\'s open, so the first bar\'s return counts', () => {
    // 1 BTC and 50 USDT; first open 100, closes 110 then 120: start 150, buy and hold +20%.
    const m = computeMetrics(run({ startBalances: { USDT: '50', BTC: '1' }, market: { open: '100', close: '120' }, equity: points([160, 170]) }));
    expect({ start: m.startEquity, pnl: m.netPnl }).toEqual({ start: 150, pnl: 20 });
    expect(m.marketReturnPct).toBeCloseTo(20, 12);
    expect(m.returnPct).toBeCloseTo((20 / 150) * 100, 10);
    // Bar returns 160/150 - 1 and 170/160 - 1: the first is the first bar's, not lost.
    const r = [160 / 150 - 1, 170 / 160 - 1];
    const mean = (r[0]! + r[1]!) / 2;
    expect(m.sharpe).toBeCloseTo((mean / Math.sqrt((r[0]! - mean) ** 2 + (r[1]! - mean) ** 2)) * Math.sqrt(365), 8);
    expect(startEquityOf(run({ startBalances: { USDT: '50', BTC: '1' }, market: { open: '100', close: '120' }, equity: points([160, 170]) }))).toBe(150);
  });

  it('values base held at the start of a run made by hand without market at its first equity point', () => {
    const m = computeMetrics(run({ startBalances: { USDT: '0', BTC: '1' }, equity: points([100, 110]) }));
    expect(m.startEquity).toBe(100);
    expect(m.returnPct).toBeCloseTo(10, 10);
  });

  it('losing everything is -100% CAGR', () => {
    expect(computeMetrics(run({ equity: points([500, 0]) })).cagrPct).toBe(-100);
  });
});

describe('periodsPerYear', () => {
  it('knows the interval names and infers the rest from spacing', () => {
    expect(periodsPerYear('1m')).toBe(525_600);
    expect(periodsPerYear('1h')).toBe(8760);
    expect(periodsPerYear('1M')).toBe(12);
    expect(periodsPerYear('odd', [0, 7_200_000, 14_400_000])).toBe(4380);
    expect(periodsPerYear('odd')).toBe(0);
  });
});

describe('the one-pass figures agree with the single functions bit for bit', () => {
  const value = fc.oneof(fc.double({ min: -10, max: 1e7, noNaN: true }), fc.constantFrom(0, 1000, 1000.5, -0, Infinity, NaN));
  it('curveFigures: Sharpe, Sortino, drawdown and exposure', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(value, fc.oneof(fc.double({ min: -2, max: 2, noNaN: true }), fc.constantFrom(0.01, -0.01, 0.00999999999))), { maxLength: 80 }), value, fc.constantFrom(0, 12, 525_600), (pts, start, perYear) => {
        const eq = pts.map(([e]) => e);
        const pos = pts.map(([, p]) => p);
        const lot = { minQty: '0.01', stepSize: '0.01' };
        const c = curveFigures(start, Float64Array.from(eq), perYear, Float64Array.from(pos), exposureThreshold(lot));
        const r = barReturns(start, eq);
        expect(Object.is(c.sharpe, sharpeRatio(r, perYear))).toBe(true);
        expect(Object.is(c.sortino, sortinoRatio(r, perYear))).toBe(true);
        expect(Object.is(c.maxDrawdownPct, maxDrawdownPct(start, eq))).toBe(true);
        const points = eq.map((equity, i) => ({ time: i, equity, position: pos[i]! }));
        expect(eq.length === 0 ? 0 : (c.exposed / eq.length) * 100).toBe(exposurePct(points, lot));
      }),
      { numRuns: 2000 },
    );
  });

  it('profit factor and fees: exact sums, as adding one at a time gives', () => {
    const amount = fc.tuple(fc.integer({ min: -(10 ** 15), max: 10 ** 15 }), fc.integer({ min: 0, max: 14 })).map(([m, k]) => X40.parse(`${m}e-${k}`).toString());
    fc.assert(
      fc.property(fc.array(amount, { maxLength: 50 }), fc.array(fc.tuple(amount, amount, fc.boolean()), { maxLength: 50 }), (pnls, fees) => {
        let win = X40.ZERO;
        let loss = X40.ZERO;
        for (const p of pnls) {
          const x = X40.parse(p);
          if (x.sign > 0) win = win.plus(x);
          else if (x.sign < 0) loss = loss.minus(x);
        }
        const pf = win.isZero() ? 0 : loss.isZero() ? Infinity : win.div(loss).toNumber();
        expect(Object.is(profitFactor(pnls.map((p) => trade(p))), pf)).toBe(true);
        let sum = X40.ZERO;
        for (const [c, price, base] of fees) sum = sum.plus(base ? X40.parse(c).times(X40.parse(price)) : X40.parse(c));
        const fs = fees.map(([c, price, base]) => fill({ commission: c, price, commissionAsset: base ? 'BTC' : 'USDT' }));
        expect(Object.is(feesInQuote(fs, 'BTC', 'USDT').quote, sum.toNumber())).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('statsByTag', () => {
  const trip = (pnl: string, entryTag?: string, exitTag?: string): RoundTrip => ({
    symbol: 'BTCPHP', direction: 'LONG', entryTime: 0, exitTime: 1, entryPrice: '1', exitPrice: '1', qty: '1', pnl, returnRatio: 0, fees: '0', barsHeld: 1,
    ...(entryTag === undefined ? {} : { entryTag }),
    ...(exitTag === undefined ? {} : { exitTag }),
  });

  it('groups trades by their entry or exit tag, most trades first, untagged as the empty tag', () => {
    const trades = [trip('5', 'long', 'tp'), trip('-2', 'long', 'sl'), trip('4', 'dip', 'tp'), trip('-1', 'long', 'sl'), trip('3'), trip('-3', 'dip', 'sl')];
    expect(statsByTag(trades, 'exitTag')).toEqual([
      { tag: 'sl', trades: 3, wins: 0, winRatePct: 0, avgPnl: -2, totalPnl: -6 },
      { tag: 'tp', trades: 2, wins: 2, winRatePct: 100, avgPnl: 4.5, totalPnl: 9 },
      { tag: '', trades: 1, wins: 1, winRatePct: 100, avgPnl: 3, totalPnl: 3 },
    ]);
    expect(statsByTag(trades, 'entryTag').map((g) => [g.tag, g.trades])).toEqual([['long', 3], ['dip', 2], ['', 1]]);
    expect(statsByTag([], 'exitTag')).toEqual([]);
  });
});

describe('maxDrawdownWindow', () => {
  it('finds the peak the deepest fall started from and its lowest point (-1: the start equity)', () => {
    expect(maxDrawdownWindow(100, [110, 105, 120, 90, 95, 130, 125])).toEqual({ peak: 2, trough: 3, pct: 25 });
    expect(maxDrawdownWindow(100, [95, 80, 99])).toEqual({ peak: -1, trough: 1, pct: 20 });
    expect(maxDrawdownWindow(100, [100, 101, 102])).toBeUndefined();
    expect(maxDrawdownWindow(100, [])).toBeUndefined();
  });

  it('agrees with maxDrawdownPct', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 1, max: 1e6, noNaN: true }), { maxLength: 200 }), (curve) => {
        expect(maxDrawdownWindow(1000, curve)?.pct ?? 0).toBe(maxDrawdownPct(1000, curve));
      }),
    );
  });
});

describe('tradeStats: streaks and durations', () => {
  const trip = (pnl: string, barsHeld: number): RoundTrip => ({ symbol: 'BTCPHP', direction: 'LONG', entryTime: 0, exitTime: 1, entryPrice: '1', exitPrice: '1', qty: '1', pnl, returnRatio: 0, fees: '0', barsHeld });
  it('counts the longest runs of wins and of losses (break-even ends both) and the mean bars of each', () => {
    const s = tradeStats([trip('1', 10), trip('2', 20), trip('-1', 4), trip('0', 7), trip('-1', 2), trip('-3', 6), trip('-2', 8), trip('5', 30), trip('1', 40), trip('1', 50)]);
    expect([s.maxWinStreak, s.maxLossStreak]).toEqual([3, 3]);
    expect(s.avgBarsWinners).toBe(30);
    expect(s.avgBarsLosers).toBe(5);
    expect(tradeStats([])).toMatchObject({ maxWinStreak: 0, maxLossStreak: 0, avgBarsWinners: 0, avgBarsLosers: 0 });
  });

  it('expectancy ratio: (1 + mean win / mean loss) * win rate - 1; undefined without a loss', () => {
    // Wins 3 and 1 (mean 2), losses 1 and 3 (mean 2), a break-even: (1 + 1) * 2/5 - 1.
    expect(tradeStats([trip('3', 1), trip('-1', 1), trip('0', 1), trip('1', 1), trip('-3', 1)]).expectancyRatio).toBeCloseTo(-0.2, 12);
    expect(tradeStats([trip('4', 1), trip('-1', 1)]).expectancyRatio).toBeCloseTo(1.5, 12); // (1 + 4) * 0.5 - 1
    expect(tradeStats([trip('-2', 1), trip('-1', 1)]).expectancyRatio).toBe(-1);
    expect(tradeStats([trip('2', 1), trip('1', 1)]).expectancyRatio).toBeUndefined();
    expect(tradeStats([]).expectancyRatio).toBeUndefined();
  });

  it('SQN: sqrt(n) * mean / sample standard deviation; undefined below two trades or with no spread', () => {
    // PnLs 1, 2, 3, 6: mean 3, sample variance (4 + 1 + 0 + 9) / 3.
    expect(tradeStats([trip('1', 1), trip('2', 1), trip('3', 1), trip('6', 1)]).sqn).toBeCloseTo((2 * 3) / Math.sqrt(14 / 3), 12);
    expect(tradeStats([trip('-1', 1), trip('-3', 1)]).sqn).toBeCloseTo((Math.SQRT2 * -2) / Math.SQRT2, 12);
    expect(tradeStats([trip('5', 1)]).sqn).toBeUndefined();
    expect(tradeStats([trip('2', 1), trip('2', 1)]).sqn).toBeUndefined();
  });
});

describe('calmarRatio', () => {
  it('is CAGR over max drawdown for a gain; 0 for a loss (its CAGR is bounded: a deeper loss would rank higher); +Infinity for a gain with no drawdown', () => {
    expect(calmarRatio(30, 10)).toBe(3);
    expect(calmarRatio(-5, 10)).toBe(0);
    expect(calmarRatio(-90, 12)).toBe(0);
    expect(calmarRatio(0, 0)).toBe(0);
    expect(calmarRatio(12, 0)).toBe(Infinity);
    expect(calmarRatio(Infinity, 5)).toBe(Infinity); // a CAGR annualised to +Infinity (a run of minutes)
  });
});
