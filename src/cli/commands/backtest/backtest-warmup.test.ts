/**
 * `halyard backtest` with a strategy whose warmup is per interval: the bars before --from its
 * longer intervals need are loaded from the journal (20 1h bars are 20 hours of the run's 1m
 * bars), so it decides from the first bar; a numeric warmup still takes its bars from the run.
 * The same for several symbols in one account: each symbol's bars before --from.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSeries } from '../../../core/synthetic/index.ts';
import { openJournal } from '../../../journal/journal.ts';
import { runCommand } from '../../test-support.ts';
import { backtestCommand } from './backtest.ts';
import { strategiesCommand } from '../strategy/strategies.ts';
import { largestWarmup } from './backtest-sweep.ts';
import { buildGrid, parseSweepSpecs } from '../../../backtest/sweep/sweep.ts';
import { loadStrategy } from '../../../strategy/loading/loader.ts';

const INDEX = fileURLToPath(new URL('../../../strategy/index.ts', import.meta.url));
const T0 = Date.UTC(2024, 0, 1);
let dir: string;
let journal: string;
let strategy: string;
let pair: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-bt-warmup-'));
  journal = join(dir, 'j.db');
  const j = openJournal(journal);
  const series = generateSeries({ seed: 3, startTime: T0, segments: [{ regime: 'flat', bars: 600 }] });
  j.klines.insertKlines([...series].map((c) => ({ symbol: 'BTCPHP', interval: '1m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
  const eth = generateSeries({ seed: 4, startTime: T0, startPrice: 150_000, segments: [{ regime: 'flat', bars: 600 }] });
  j.klines.insertKlines([...eth].map((c) => ({ symbol: 'ETHPHP', interval: '1m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
  j.close();
  // Logs its first decision: the minute and whether the 1h SMA(3) was there to read.
  strategy = join(dir, 'hourly-trend.mts');
  writeFileSync(
    strategy,
    `import { defineStrategy, z } from ${JSON.stringify(INDEX)};
export default defineStrategy({
  name: 'hourly-trend',
  params: z.object({ slow: z.number().int().default(5) }),
  symbols: ['BTCPHP'],
  intervals: ['1m', '1h'],
  warmup: (p) => ({ '1m': p.slow, '1h': 3 }),
  state: () => ({ first: true }),
  onBar(ctx, bar) {
    if (bar.interval !== '1m' || !ctx.state.first) return;
    ctx.state.first = false;
    ctx.log('first decision', { minute: (ctx.now() - ${T0}) / 60000, sma: ctx.bars('BTCPHP', '1h').sma(3).at(0) ?? null });
  },
});
`,
  );
  // The same over two symbols: logs each symbol's first decision.
  pair = join(dir, 'pair-trend.mts');
  writeFileSync(
    pair,
    `import { defineStrategy, z } from ${JSON.stringify(INDEX)};
export default defineStrategy({
  name: 'pair-trend',
  params: z.object({}),
  symbols: ['BTCPHP', 'ETHPHP'],
  intervals: ['1m', '1h'],
  warmup: { '1m': 5, '1h': 3 },
  state: () => ({ decided: [] }),
  onBar(ctx, bar) {
    if (bar.interval !== '1m' || ctx.state.decided.includes(bar.symbol)) return;
    ctx.state.decided.push(bar.symbol);
    ctx.log('first decision', { symbol: bar.symbol, minute: (ctx.now() - ${T0}) / 60000, sma: ctx.bars(bar.symbol, '1h').sma(3).at(0) ?? null });
  },
});
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const backtest = (json: string, extra: string[]) =>
  runCommand(backtestCommand, ['backtest', '--strategy', strategy, '--symbol', 'BTCPHP', '--interval', '1m', '--journal', journal, '--out-dir', join(dir, 'out'), '--json', json, ...extra], { config: true });

interface SavedRun {
  run: { from: number; barCount: number; startupBars?: number; warmupByInterval?: Record<string, number>; warmupIdleBars?: number; notices?: string[] };
}

describe('halyard backtest: warmup per interval', () => {
  it('loads the 3 hours before --from its 1h SMA(3) needs: the first decision is on the first bar, the SMA there', async () => {
    const json = join(dir, 'from.json');
    const r = await backtest(json, ['--from', '2024-01-01T04:00']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const { run } = JSON.parse(readFileSync(json, 'utf8')) as SavedRun;
    expect([run.from, run.barCount, run.startupBars, run.warmupIdleBars, run.notices]).toEqual([T0 + 4 * 3_600_000, 360, 180, 0, []]);
    expect(run.warmupByInterval).toEqual({ '1m': 5, '1h': 3 });
    expect(r.out).toMatch(/^Warmup {4}1m 5, 1h 3 bars, 180 1m bars of it from before the range: onBar ran from the first bar$/m);
    expect(r.out).toMatch(/^Log {7}1 line\(s\) from the strategy; first: .*first decision \{"minute":241,"sma":\d/m);
  });

  it('says which interval the journal lacked bars for when --from is too near its start', async () => {
    const json = join(dir, 'near.json');
    const r = await backtest(json, ['--from', '2024-01-01T02:00']);
    expect(r.code).toBe(0);
    const { run } = JSON.parse(readFileSync(json, 'utf8')) as SavedRun;
    expect([run.startupBars, run.warmupIdleBars]).toEqual([120, 59]);
    expect(run.notices).toEqual(["the 120 1m bars before the range did not cover the strategy's warmup (1m 5, 1h 3 bars): 1h had 2 of its 3 bars at the first bar; onBar first ran on bar 60 of 480"]);
    expect(r.out).toMatch(/^Warning {3}the 120 1m bars before the range did not cover/m);
  });

  it('without --from the warm-up comes from the run\'s own bars (nothing before the journal\'s first)', async () => {
    const json = join(dir, 'all.json');
    const r = await backtest(json, []);
    const { run } = JSON.parse(readFileSync(json, 'utf8')) as SavedRun;
    expect([run.startupBars, run.warmupIdleBars, run.notices]).toEqual([undefined, 179, []]);
    expect(r.out).toMatch(/first decision \{"minute":180,/);
  });

  it('a numeric warmup is still taken from the run\'s bars with --from (no history loaded)', async () => {
    const json = join(dir, 'sma.json');
    const r = await runCommand(backtestCommand, ['backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--interval', '1m', '--journal', journal, '--out-dir', join(dir, 'out'), '--json', json, '--from', '2024-01-01T04:00'], { config: true });
    expect(r.code).toBe(0);
    const { run } = JSON.parse(readFileSync(json, 'utf8')) as SavedRun & { run: { warmup?: number } };
    expect([run.startupBars, run.warmup, run.warmupByInterval]).toEqual([undefined, 31, undefined]);
  });

  it('a walk-forward window must be longer than the warm-up counted in the run\'s bars: 3 1h bars are 4 hours of 1m bars at most', async () => {
    const def = (await loadStrategy(strategy)).definition;
    expect(largestWarmup(def, buildGrid(def, parseSweepSpecs(['slow=5,300'])), '1m')).toEqual({ bars: 300, source: 'hourly-trend at slow=300, the largest across the grid' });
    expect(largestWarmup(def, buildGrid(def, parseSweepSpecs(['slow=5,10'])), '1m')).toEqual({ bars: 240, source: 'hourly-trend, the same at every parameter set' });
  });

  it('of several symbols, loads each symbol\'s 3 hours before --from: every symbol decides from the first bar', async () => {
    const json = join(dir, 'pair.json');
    const r = await runCommand(backtestCommand, ['backtest', '--strategy', pair, '--symbol', 'BTCPHP,ETHPHP', '--interval', '1m', '--journal', journal, '--out-dir', join(dir, 'out'), '--json', json, '--from', '2024-01-01T04:00'], { config: true });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const { run } = JSON.parse(readFileSync(json, 'utf8')) as SavedRun & { run: { symbols: { symbol: string; warmupIdleBars?: number }[] } };
    expect([run.from, run.barCount, run.startupBars, run.warmupIdleBars, run.notices]).toEqual([T0 + 4 * 3_600_000, 360, 180, 0, []]);
    expect(run.warmupByInterval).toEqual({ '1m': 5, '1h': 3 });
    expect(run.symbols.map((s) => [s.symbol, s.warmupIdleBars])).toEqual([
      ['BTCPHP', 0],
      ['ETHPHP', 0],
    ]);
    expect(r.out).toMatch(/^Warmup {4}1m 5, 1h 3 bars, 180 1m bars of it from before the range: onBar ran from the first bar$/m);
    // The log shares the JSON's name.
    const log = readFileSync(json.replace(/\.json$/, '.log'), 'utf8');
    expect(log).toMatch(/first decision \{"symbol":"BTCPHP","minute":241,"sma":\d/);
    expect(log).toMatch(/first decision \{"symbol":"ETHPHP","minute":241,"sma":\d/);
  });

  it('of several symbols without --from, the warm-up comes from the run\'s own bars', async () => {
    const json = join(dir, 'pair-all.json');
    const r = await runCommand(backtestCommand, ['backtest', '--strategy', pair, '--symbol', 'BTCPHP,ETHPHP', '--interval', '1m', '--journal', journal, '--out-dir', join(dir, 'out'), '--json', json], { config: true });
    expect(r.code).toBe(0);
    const { run } = JSON.parse(readFileSync(json, 'utf8')) as SavedRun;
    expect([run.startupBars, run.warmupIdleBars, run.notices]).toEqual([undefined, 179, []]);
  });

  it('`halyard strategies` shows the warmup per interval', async () => {
    const r = await runCommand(strategiesCommand, ['strategies', strategy]);
    expect(r.out).toMatch(/^ {2}with its defaults: BTCPHP on 1m, 1h, warmup 1m 5, 1h 3 bars$/m);
  });
});
