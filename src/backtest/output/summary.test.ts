import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../metrics/metrics.ts';
import { barsText, fmtDuration, fmtEdge, fmtFillModel, fmtNum, fmtPct, fmtSignedPct, fmtTagStats, fmtTime, metricRows } from '../metrics/metrics-format.ts';
import { demoRun } from '../report/demo-run.ts';
import { metricsHtml } from '../report/html-parts.ts';
import { denialHint, formatSummary, missingBarsText } from './summary.ts';

describe('formatSummary', () => {
  it('shows what ran, the metrics aligned in two pairs, and the trade statistics', () => {
    const run = demoRun({ bars: 600, seed: 3 });
    const text = formatSummary(run, computeMetrics(run));
    const lines = text.split('\n');
    expect(lines[0]).toBe('Strategy  demo-sma');
    expect(text).toMatch(/^Params {4}fast=8 slow=21$/m);
    expect(text).toMatch(/^Market {4}BTCUSDT 1m$/m);
    expect(formatSummary({ ...run, longerIntervals: ['1h', '5m'] }, computeMetrics(run))).toMatch(/^Market {4}BTCUSDT 1m \(and 1h, 5m bars made from them, for the strategy\)$/m);
    expect(text).toMatch(/^Range {5}2024-01-01 00:00 UTC -> 2024-01-01 10:00 UTC \(10h, 600 bars\)$/m);
    expect(text).toMatch(/^Start equity +10,000\.00 USDT +Sharpe \(ann\.\) +-?[\d.]+$/m);
    expect(text).toMatch(/^Calmar +n\/a \(< 30 days\) +Fills +\d+$/m);
    expect(text).toMatch(/^Trades {4}\d+ \(\d+ long, 0 short\): \d+ won, \d+ lost$/m);
    expect(text).toMatch(/^Streaks {3}up to \d+ won and \d+ lost in a row; winners held [\d.]+ bars, losers [\d.]+ on average$/m);
    expect(text).toMatch(/^Edge {6}expectancy ratio -?[\d.]+ \(per unit of the average loss\), SQN -?[\d.]+$/m);
    expect(text).toMatch(/^Drawdown {2}deepest [\d.]+% from 2024-01-01 \d\d:\d\d UTC \([\d,.]+ USDT\) to 2024-01-01 \d\d:\d\d UTC \([\d,.]+ USDT\)$/m);
    // The quote balance as money (two decimals, grouped), a base balance exact.
    const balances = formatSummary({ ...run, startBalances: { USDT: '10000' }, endBalances: { BTC: '0.000309538', USDT: '8933.67150068994' } }, computeMetrics(run));
    expect(balances).toMatch(/^Balances {2}10,000\.00 USDT -> 0\.000309538 BTC, 8,933\.67 USDT$/m);
    // Ten hours annualised would be an absurd figure: not shown under 30 days.
    expect(text).toMatch(/^CAGR +n\/a \(< 30 days\) /m);
    // The metric table's value columns line up.
    const table = lines.filter((l) => /^(Start equity|End equity|Net PnL) /.test(l));
    expect(new Set(table.map((l) => l.indexOf('USDT'))).size).toBe(1);
  });

  it('says when there were no trades and lists denials and failures', () => {
    const run = { ...demoRun({ bars: 50 }), trades: [], denials: [{ time: 0, symbol: 'BTCUSDT', reasons: ['insufficient balance'] }], strategyFailures: [{ time: 0, handler: 'onBar', message: 'oops' }] };
    const text = formatSummary(run, computeMetrics(run));
    expect(text).toMatch(/^Trades {4}none$/m);
    expect(barsText(1)).toBe('1 bar');
    expect(barsText(525_600)).toBe('525,600 bars');
    // No closed trade: no rate to show (0.0% would read as every trade lost).
    expect(text).toMatch(/Win rate +n\/a \(no trades\)/);
    expect(text).toMatch(/Profit factor +n\/a \(no trades\)/);
    expect(text).toMatch(/^Denied {4}1 intent\(s\) .*insufficient balance$/m);
    expect(text).toMatch(/^Failures {2}1 strategy handler failure\(s\); first: onBar at 1970-01-01 00:00 UTC: oops$/m);
    const thrown = formatSummary({ ...run, strategyFailures: [{ time: 0, handler: 'onBar', message: 'oops', at: '/s/strat.ts:8:32' }] }, computeMetrics(run));
    expect(thrown).toMatch(/^Failures {2}1 strategy handler failure\(s\); first: onBar at .*: oops \(thrown at \/s\/strat\.ts:8:32\)$/m);
  });
});

describe('formatSummary: CAGR and Calmar', () => {
  it('show from 30 days of run on, measured as CAGR compounds: first open to last close', () => {
    const day = 86_400_000;
    // 30 daily bars span 30 days (their first close to their last is 29).
    const month = demoRun({ bars: 30, intervalMs: day, interval: '1d' });
    expect(month.to - month.from).toBe(30 * day);
    const m = computeMetrics(month);
    const text = formatSummary(month, m);
    expect(text).toMatch(new RegExp(`^CAGR +${fmtSignedPct(m.cagrPct).replace(/[+.]/g, '\\$&')} `, 'm'));
    expect(text).not.toMatch(/n\/a \(< 30 days\)/);
    const short = demoRun({ bars: 29, intervalMs: day, interval: '1d' });
    expect(formatSummary(short, computeMetrics(short))).toMatch(/^CAGR +n\/a \(< 30 days\) /m);
    expect(formatSummary(short, computeMetrics(short))).toMatch(/^Calmar +n\/a \(< 30 days\) /m);
  });
});

describe('formatSummary: the position held at the end', () => {
  const openTrade = {
    symbol: 'BTCUSDT',
    direction: 'LONG' as const,
    entryTime: Date.UTC(2024, 0, 1, 9, 30),
    qty: '0.0125',
    cost: '1234.5',
    entryPrice: '98760',
    markPrice: '99000.5',
    value: '1237.50625',
    unrealizedPnl: '3.00625',
    realizedPnl: '0',
    fees: '1.2345',
    barsHeld: 30,
  };

  it('is a line of its own (it is no trade), and only when the run ended holding', () => {
    const run = demoRun({ bars: 600, seed: 3 });
    expect(formatSummary(run, computeMetrics(run))).not.toMatch(/^Open /m);
    const text = formatSummary({ ...run, openTrade }, computeMetrics(run));
    expect(text).toMatch(
      /^Open {6}LONG 0\.0125 BTC since 2024-01-01 09:30 UTC \(30 bars\): cost 1,234\.50 USDT \(entry 98,760\.00\), worth 1,237\.51 at the last close 99,000\.50: unrealized \+3\.01 USDT before the exit's fee$/m,
    );
  });

  it('adds what partial exits of the open position realized, when they did', () => {
    const run = demoRun({ bars: 600, seed: 3 });
    const text = formatSummary({ ...run, openTrade: { ...openTrade, realizedPnl: '-12.345' } }, computeMetrics(run));
    expect(text).toMatch(/^Open {6}LONG .* unrealized \+3\.01 USDT before the exit's fee; partial exits realized -12\.35 USDT$/m);
  });
});

describe('formatSummary: trades by tag', () => {
  it('shows entries and exits by tag when the tags tell groups apart, not when every trade is tagged alike', () => {
    const run = demoRun({ bars: 600, seed: 3 });
    const alike = run.trades.map((t) => ({ ...t, entryTag: 'entry', exitTag: 'exit' }));
    const text = formatSummary({ ...run, trades: alike }, computeMetrics(run));
    expect(text).not.toMatch(/^(Entries|Exits) /m);
    const split = run.trades.map((t, i) => ({ ...t, entryTag: 'entry', exitTag: i % 2 === 0 ? 'tp' : 'sl' }));
    const byTag = formatSummary({ ...run, trades: split }, computeMetrics(run));
    expect(byTag).not.toMatch(/^Entries /m);
    expect(byTag).toMatch(/^Exits {5}(tp|sl) \d+ \([\d.]+% won, avg [-+][\d.,]+, total [-+][\d.,]+ USDT\); (tp|sl) \d+ /m);
  });
});

describe('formatSummary: days', () => {
  it('counts the days won, flat and lost with the best and worst, for a run over more than one day', () => {
    const short = demoRun({ bars: 600, seed: 3 });
    expect(formatSummary(short, computeMetrics(short))).not.toMatch(/^Days /m);
    const run = demoRun({ bars: 3 * 1440, seed: 3 });
    expect(formatSummary(run, computeMetrics(run))).toMatch(/^Days {6}\d won, \d flat, \d lost; best [-+][\d.]+% \(2024-01-0\d\), worst [-+][\d.]+% \(2024-01-0\d\)$/m);
  });

  it('has no Days line when the bars are longer than a day: a 3d or 1w bar\'s return is no day\'s', () => {
    const day = 86_400_000;
    const daily = demoRun({ bars: 12, intervalMs: day, interval: '1d' });
    expect(formatSummary(daily, computeMetrics(daily))).toMatch(/^Days {6}\d+ won, \d+ flat, \d+ lost; /m);
    expect(metricsHtml(daily, computeMetrics(daily))).toContain('id="days"');
    for (const [interval, ms] of [['3d', 3 * day], ['1w', 7 * day]] as const) {
      const run = demoRun({ bars: 12, intervalMs: ms, interval });
      expect(formatSummary(run, computeMetrics(run))).not.toMatch(/^Days /m);
      expect(metricsHtml(run, computeMetrics(run))).not.toContain('id="days"');
    }
  });
});

describe('metric formatting', () => {
  it('groups thousands, signs, infinities and huge percentages', () => {
    expect(fmtNum(1234567.891)).toBe('1,234,567.89');
    expect(fmtNum(-0.001)).toBe('0.00');
    expect(fmtNum(Infinity)).toBe('∞');
    expect(fmtSignedPct(12.345)).toBe('+12.35%');
    expect(fmtSignedPct(2.05e21)).toBe('+2.05e21%');
    expect(fmtTime(1_704_067_230_000)).toBe('2024-01-01 00:00:30 UTC');
    expect(fmtDuration(90 * 60_000)).toBe('1h 30m');
  });
});

describe('fmtEdge', () => {
  it('prints expectancy ratio and SQN, each n/a with why when the trades cannot give it', () => {
    expect(fmtEdge({ expectancyRatio: 0.1234, sqn: -1.5 })).toBe('expectancy ratio 0.12 (per unit of the average loss), SQN -1.50');
    expect(fmtEdge({ expectancyRatio: undefined, sqn: undefined })).toBe('expectancy ratio n/a (no losing trade), SQN n/a (fewer than two trades, or all alike)');
  });
});

describe('percentages near 0 and 100', () => {
  it('never print as 0 or 100 when they are not: extra decimals tell them apart', () => {
    expect(fmtPct(99.98, 1)).toBe('99.98%');
    expect(fmtPct(99.951, 1)).toBe('99.95%');
    expect(fmtPct(99.9996, 1)).toBe('99.9996%');
    expect(fmtPct(0.04, 1)).toBe('0.04%');
    expect(fmtPct(0.004)).toBe('0.004%');
    expect(fmtSignedPct(-99.999)).toBe('-99.999%');
    expect(fmtSignedPct(100.001)).toBe('+100.001%');
    expect(fmtSignedPct(-0.001)).toBe('-0.001%');
    expect(fmtSignedPct(0.0004)).toBe('+0.0004%');
  });

  it('past four extra decimals, print the nearest figure of their own decimals and the side they lie on', () => {
    expect(fmtPct(100 - 1e-9, 1)).toBe('>99.9%');
    expect(fmtPct(1e-9, 1)).toBe('<0.1%');
    expect(fmtSignedPct(1e-9)).toBe('<+0.01%');
    expect(fmtSignedPct(-1e-9)).toBe('>-0.01%');
    expect(fmtSignedPct(-100 + 1e-9)).toBe('<-99.99%');
    expect(fmtSignedPct(100 + 1e-9)).toBe('>+100.00%');
  });

  it('keep their decimals otherwise, exactly 0 and 100 included', () => {
    expect(fmtPct(100, 1)).toBe('100.0%');
    expect(fmtPct(0, 1)).toBe('0.0%');
    expect(fmtPct(99.94, 1)).toBe('99.9%');
    expect(fmtPct(0.05, 1)).toBe('0.1%');
    expect(fmtSignedPct(-100)).toBe('-100.00%');
    expect(fmtSignedPct(0)).toBe('0.00%');
    expect(fmtSignedPct(12.345)).toBe('+12.35%');
  });

  it('apply to exposure, win rate and drawdown in the summary and report rows, and to win rates by tag', () => {
    const run = demoRun({ bars: 600, seed: 3 });
    const m = { ...computeMetrics(run), exposurePct: 99.98, winRatePct: 99.99, maxDrawdownPct: 0.001, trades: 10_000 };
    const rows = Object.fromEntries(metricRows(m, 'USDT').map((r) => [r.key, r.value]));
    expect(rows.exposurePct).toBe('99.98%');
    expect(rows.winRatePct).toBe('99.99%');
    expect(rows.maxDrawdownPct).toBe('0.001%');
    expect(formatSummary(run, m)).toMatch(/ Exposure +99\.98%$/m);
    expect(metricsHtml(run, m)).toContain('<div class="label">Exposure</div><div class="value">99.98%</div>');
    const tag = { trades: 9_999, wins: 9_998, winRatePct: (9_998 / 9_999) * 100, avgPnl: 1, totalPnl: 1 };
    expect(fmtTagStats([{ ...tag, tag: 'a' }, { ...tag, tag: 'b' }], 'USDT')).toContain('a 9,999 (99.99% won,');
  });
});

describe('fmtFillModel', () => {
  it('says the backtester\'s fill model in words, anything else as its JSON', () => {
    expect(fmtFillModel({ marketFill: 'next-open', slippageBps: 0, limitFill: 'through', volumeShare: null })).toBe('MARKET at the next open, no slippage, LIMIT when traded through, no volume cap');
    expect(fmtFillModel({ marketFill: 'next-open', slippageBps: 2.5, limitFill: 'touch', volumeShare: 0.1 })).toBe("MARKET at the next open, 2.5 bps slippage, LIMIT when touched, at most 10% of a bar's volume");
    expect(fmtFillModel({ kind: 'close' })).toBe('{"kind":"close"}');
    expect(fmtFillModel({})).toBe('');
  });
});

describe('denialHint', () => {
  it('names the context helper that avoids a filter denial, when one does', () => {
    expect(denialHint(['Filter failure: PRICE_FILTER: price 900.123 is not a multiple of tickSize 0.01 above minPrice 0.01'])).toMatch(/roundPrice\(\)/);
    expect(denialHint(['Filter failure: PRICE_FILTER: stopPrice 1.001 is not a multiple of tickSize 0.01 above minPrice 0.01'])).toMatch(/roundPrice\(\)/);
    expect(denialHint(['Filter failure: LOT_SIZE: quantity 1.0000001 is not a multiple of stepSize 0.000001 above minQty 0.000001'])).toMatch(/roundQty\(\)/);
    expect(denialHint(['Filter failure: LOT_SIZE: quantity 500 is above maxQty 100'])).toMatch(/capQty\(\)/);
    expect(denialHint(['Filter failure: NOTIONAL: notional 1 (quoteOrderQty) is below minNotional 50'])).toMatch(/meetsMinimums\(\)/);
    expect(denialHint(['Account has insufficient balance for requested action: needs 10 PHP'])).toBeUndefined();
    const run = { ...demoRun({ bars: 50 }), denials: [{ time: 0, symbol: 'BTCUSDT', reasons: ['Filter failure: LOT_SIZE: quantity 500 is above maxQty 100'] }] };
    expect(formatSummary(run, computeMetrics(run))).toMatch(/^Denied {4}1 intent\(s\) refused before the venue; first: Filter failure: LOT_SIZE: quantity 500 is above maxQty 100 \(ctx\.instrument\(\)\.capQty\(\) keeps a quantity within maxQty\)$/m);
  });
});

describe('missingBarsText', () => {
  it('tells missing bars the exchange had no trades for from gaps in the data', () => {
    const run = demoRun({ bars: 50 });
    expect(missingBarsText({ ...run, missingBars: 0 })).toBeUndefined();
    expect(missingBarsText({ ...run, missingBars: 50 })).toBe('50 missing: the data has gaps');
    expect(missingBarsText({ ...run, missingBars: 50, missingNoTrades: 50 })).toBe('50 missing: no trades at the exchange then');
    expect(missingBarsText({ ...run, missingBars: 1200, missingNoTrades: 1150 })).toBe('1,200 missing: 1,150 without trades at the exchange, 50 gaps in the data');
  });
});
