/** `halyard backtest --symbol BTCPHP,ETHPHP` (src/cli/commands/backtest/backtest-several.ts) against a temp journal of two symbols. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestCommand } from '../src/cli/commands/backtest/backtest.ts';
import { checkCommand } from '../src/cli/commands/backtest/check.ts';
import type { CliIo } from '../src/cli/io.ts';
import { runCommand } from '../src/cli/test-support.ts';
import { generateSeries } from '../src/core/synthetic/index.ts';
import { openJournal } from '../src/journal/journal.ts';

let dir: string;
let journal: string;
const T0 = Date.UTC(2024, 0, 1);
const HOUR = 3_600_000;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-bt-several-'));
  journal = join(dir, 'j.db');
  const j = openJournal(journal);
  // 30 days of hours each; ETHPHP lacks 5 hours in the middle (gaps are per symbol).
  const btc = generateSeries({ seed: 7, startTime: T0, intervalMs: HOUR, segments: [{ regime: 'slowUp', bars: 360 }, { regime: 'slowDown', bars: 360 }] });
  const eth = generateSeries({ seed: 8, startTime: T0, intervalMs: HOUR, startPrice: 150_000, segments: [{ regime: 'slowDown', bars: 360 }, { regime: 'slowUp', bars: 360 }] });
  j.klines.insertKlines([...btc].map((c) => ({ symbol: 'BTCPHP', interval: '1h', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
  j.klines.insertKlines([...eth].filter((c) => c.openTime < T0 + 300 * HOUR || c.openTime >= T0 + 305 * HOUR).map((c) => ({ symbol: 'ETHPHP', interval: '1h', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
  j.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (argv: string[]) => runCommand(backtestCommand, argv, { config: true });
/** `halyard check` of both symbols; the code is the exit code the command set, else reportError's. */
async function check(argv: string[]) {
  let set: number | undefined;
  const r = await runCommand((io: CliIo) => checkCommand(io, (c) => (set = c)), ['check', '--symbol', 'BTCPHP,ETHPHP', '--interval', '1h', '--journal', journal, ...argv], { config: true });
  return { ...r, code: set ?? r.code };
}
const INDEX = fileURLToPath(new URL('../src/strategy/index.ts', import.meta.url));

/** Long each symbol above its EMA(50), with a warmup of 10: more history changes its averages. */
function emaPairFile(): string {
  const file = join(dir, 'ema-pair.mts');
  writeFileSync(
    file,
    `import { defineStrategy, place, z } from ${JSON.stringify(INDEX)};
export default defineStrategy({
  name: 'ema-pair',
  params: z.object({ symbols: z.array(z.string()).default(['BTCPHP', 'ETHPHP']) }),
  symbols: (p) => p.symbols,
  intervals: ['1h'],
  warmup: 10,
  onBar(ctx, bar) {
    const s = bar.symbol;
    const avg = ctx.bars(s).ema(50).value;
    ctx.plot(s + ' ema', avg);
    if (avg === undefined) return;
    const flat = ctx.position(s).flat;
    if (flat && bar.close > avg) return [place({ symbol: s, side: 'BUY', type: 'MARKET', quoteOrderQty: '1000' })];
    if (!flat && bar.close < avg) return [place({ symbol: s, side: 'SELL', type: 'MARKET', quantity: ctx.instrument(s).capQty(ctx.position(s).base) })];
  },
});
`,
  );
  return file;
}
const base = (symbols: string[]) => ['backtest', '--strategy', 'pair-rotation', ...symbols.flatMap((s) => ['--symbol', s]), '--interval', '1h', '--journal', journal, '--out-dir', join(dir, 'out')];

interface SavedRun {
  run: { symbol: string; barCount: number; missingBars: number; params: Record<string, unknown>; symbols: { symbol: string; barCount: number; missingBars: number }[]; trades: { symbol: string }[]; fills: { symbol: string }[] };
  metrics: { trades: number };
}

interface SavedSweep {
  symbol: string;
  symbols?: string[];
  failed: unknown[];
  results: { values: Record<string, unknown>; params: Record<string, unknown>; metrics: Record<string, unknown>; bars: number }[];
}

describe('halyard backtest of several symbols', () => {
  it('runs two symbols in one account: summary per symbol, the JSON with the symbols, a report with a chart per symbol', async () => {
    const json = join(dir, 'two.json');
    const report = join(dir, 'two.html');
    const r = await run([...base(['BTCPHP,ETHPHP']), '--param', 'lookback=12', '--param', 'rebalance=6', '--json', json, '--report', report]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Market +BTCPHP, ETHPHP 1h \(one account in PHP\)$/m);
    expect(r.out).toMatch(/^Symbol +Bars +Trades +Won +PnL \(PHP\) +Buy and hold +Held at the end$/m);
    expect(r.out).toMatch(/^BTCPHP +720 /m);
    expect(r.out).toMatch(/^ETHPHP +715 /m);
    expect(r.out).toMatch(/^Trades +\d+ .*; BTCPHP \d+, ETHPHP \d+$/m);
    expect(r.out).toContain('Buy and hold splits the start quote equally across BTCPHP, ETHPHP');
    const saved = JSON.parse(readFileSync(json, 'utf8')) as SavedRun;
    expect(saved.run.symbol).toBe('BTCPHP,ETHPHP');
    expect(saved.run.barCount).toBe(720);
    expect(saved.run.missingBars).toBe(5);
    expect(saved.run.params['symbols']).toEqual(['BTCPHP', 'ETHPHP']);
    expect(saved.run.symbols.map((s) => [s.symbol, s.barCount, s.missingBars])).toEqual([
      ['BTCPHP', 720, 0],
      ['ETHPHP', 715, 5],
    ]);
    expect(new Set(saved.run.fills.map((f) => f.symbol))).toEqual(new Set(['BTCPHP', 'ETHPHP']));
    expect(saved.metrics.trades).toBe(saved.run.trades.length);
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('id="price-chart"');
    expect(html).toContain('id="price-chart-1"');
    expect(html).toContain('<h2>Price: ETHPHP</h2>');
    expect(html).toContain('id="symbols-table"');
    // Repeated --symbol is the same run.
    const again = await run([...base(['BTCPHP', 'ETHPHP']), '--param', 'lookback=12', '--param', 'rebalance=6', '--json', join(dir, 'again.json'), '--report', join(dir, 'again.html')]);
    expect(again.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'again.json'), 'utf8'))).toEqual(saved);
  });

  it('names the partial periods each symbol\'s bars made from shorter ones leave out, as one symbol\'s run does', async () => {
    // BTCPHP's hours start at 01:00 and ETHPHP's end at 22:00 of the last day: a partial 4h period at either end.
    const file = join(dir, 'edges.db');
    const j = openJournal(file);
    const hours = (seed: number, from: number, n: number) => [...generateSeries({ seed, startTime: from, intervalMs: HOUR, segments: [{ regime: 'slowUp', bars: n }] })];
    j.klines.insertKlines(hours(3, T0 + HOUR, 239).map((c) => ({ symbol: 'BTCPHP', interval: '1h', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
    j.klines.insertKlines(hours(4, T0, 238).map((c) => ({ symbol: 'ETHPHP', interval: '1h', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
    j.close();
    const r = await run(['backtest', '--strategy', 'pair-rotation', '--symbol', 'BTCPHP,ETHPHP', '--interval', '4h', '--param', 'lookback=4', '--param', 'rebalance=2', '--journal', file, '--out-dir', join(dir, 'out4h')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('bars    BTCPHP 4h made from its 1h bars; 1 partial period opening 2024-01-01T00:00Z left out\n');
    expect(r.out).toContain('bars    ETHPHP 4h made from its 1h bars; 1 partial period opening 2024-01-10T20:00Z left out\n');
  });

  it('reads each symbol\'s rules from the --exchange-info file that lists it (repeatable), and names the files when none does', async () => {
    const rules = (symbol: string, base: string) => ({
      symbol,
      status: 'TRADING',
      baseAsset: base,
      baseAssetPrecision: 8,
      quoteAsset: 'PHP',
      quoteAssetPrecision: 2,
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '100000000', tickSize: '0.01' },
        { filterType: 'LOT_SIZE', minQty: '0.00001', maxQty: '1000', stepSize: '0.00001' },
        { filterType: 'NOTIONAL', minNotional: '50', maxNotional: '100000000' },
      ],
    });
    const btc = join(dir, 'btc-rules.json');
    const eth = join(dir, 'eth-rules.json');
    writeFileSync(btc, JSON.stringify(rules('BTCPHP', 'BTC')));
    writeFileSync(eth, JSON.stringify({ symbols: [rules('ETHPHP', 'ETH')] }));
    const r = await run([...base(['BTCPHP,ETHPHP']), '--exchange-info', btc, '--exchange-info', eth, '--json', join(dir, 'rules.json')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`rules   BTCPHP: exchangeInfo from ${btc}\nrules   ETHPHP: exchangeInfo from ${eth}`);
    const none = await run([...base(['BTCPHP,ETHPHP']), '--exchange-info', btc]);
    expect(none.code).toBe(2);
    expect(none.err).toBe(`error: ${btc} has no rules for ETHPHP; it lists BTCPHP`);
    const both = await run([...base(['BTCPHP,ETHPHP']), '--exchange-info', btc, '--exchange-info', btc]);
    expect(both.err).toBe(`error: no --exchange-info file has rules for ETHPHP: ${btc} has no rules for ETHPHP; it lists BTCPHP; ${btc} has no rules for ETHPHP; it lists BTCPHP`);
  });

  it('takes a balance of each base asset and refuses one the symbols do not trade', async () => {
    const json = join(dir, 'bal.json');
    const r = await run([...base(['BTCPHP,ETHPHP']), '--balance', 'PHP=100000', '--balance', 'ETH=1', '--json', json, '--report', join(dir, 'bal.html')]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Balances +1 ETH, 100,000.00 PHP -> /m);
    const bad = await run([...base(['BTCPHP,ETHPHP']), '--balance', 'USDT=5']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--balance USDT: BTCPHP, ETHPHP trade BTC, ETH against PHP');
  });

  it('sweeps two symbols in one account (in this process and on 2 workers alike): the JSON names the symbols, every point ran on both', async () => {
    const json = join(dir, 'sweep.json');
    const r = await run([...base(['BTCPHP,ETHPHP']), '--param', 'rebalance=6', '--sweep', 'lookback=6,12,24', '--workers', '0', '--json', json]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Sweep of pair-rotation on BTCPHP,ETHPHP 1h: 3 combination\(s\) run in this process/m);
    expect(r.out).toMatch(/^best {4}--param lookback=\d+ {2}\(run it alone for its report\)$/m);
    const saved = JSON.parse(readFileSync(json, 'utf8')) as SavedSweep;
    expect(saved.symbol).toBe('BTCPHP,ETHPHP');
    expect(saved.symbols).toEqual(['BTCPHP', 'ETHPHP']);
    expect(saved.failed).toEqual([]);
    expect(saved.results).toHaveLength(3);
    for (const e of saved.results) {
      expect(e.bars).toBe(720); // periods: ETHPHP's 5 missing hours are BTCPHP's alone
      expect(e.params['symbols']).toEqual(['BTCPHP', 'ETHPHP']);
    }
    // The sweep report beside the JSON.
    expect(readFileSync(join(dir, 'sweep.html'), 'utf8')).toContain('BTCPHP,ETHPHP');
    // A point's figures are the single run's.
    const best = saved.results[0]!;
    const one = join(dir, 'one.json');
    const alone = await run([...base(['BTCPHP,ETHPHP']), '--param', 'rebalance=6', '--param', `lookback=${String(best.values['lookback'])}`, '--json', one, '--report', join(dir, 'one.html')]);
    expect(alone.code).toBe(0);
    const single = JSON.parse(readFileSync(one, 'utf8')) as { metrics: Record<string, unknown> };
    expect(best.metrics).toEqual(single.metrics);
    // On worker threads: the same results.
    const threaded = join(dir, 'sweep-threads.json');
    const t = await run([...base(['BTCPHP,ETHPHP']), '--param', 'rebalance=6', '--sweep', 'lookback=6,12,24', '--workers', '2', '--json', threaded]);
    expect(t.err).toBe('');
    expect(t.code).toBe(0);
    expect(t.out).toContain('on 2 worker thread(s)');
    const other = JSON.parse(readFileSync(threaded, 'utf8')) as SavedSweep;
    expect(other.results.map((e) => [e.values, e.metrics])).toEqual(saved.results.map((e) => [e.values, e.metrics]));
  }, 120_000);

  it('walks forward over two symbols: windows of periods, each test window run on both', async () => {
    const json = join(dir, 'wf.json');
    const r = await run([...base(['BTCPHP', 'ETHPHP']), '--param', 'rebalance=6', '--sweep', 'lookback=6,12', '--walk-forward', '--folds', '2', '--train-bars', '300', '--test-bars', '200', '--workers', '0', '--json', json]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Walk-forward of pair-rotation on BTCPHP,ETHPHP 1h: 2 fold\(s\) of 2 parameter set\(s\), rolling train 300 periods, test 200, step 200 \(of 720\)/m);
    const saved = JSON.parse(readFileSync(json, 'utf8')) as { symbols: string[]; totalBars: number; folds: { testWindow: { skip: number; take: number }; testResult: { bars: number; from: number; to: number } | null }[] };
    expect(saved.symbols).toEqual(['BTCPHP', 'ETHPHP']);
    expect(saved.totalBars).toBe(720);
    expect(saved.folds.map((f) => f.testWindow)).toEqual([
      { skip: 300, take: 200 },
      { skip: 500, take: 200 },
    ]);
    // Each test window is its 200 periods: from the period at its skip, to the close of its last.
    saved.folds.forEach((f) => {
      expect(f.testResult?.bars).toBe(200);
      expect(f.testResult?.from).toBe(T0 + f.testWindow.skip * HOUR);
      expect(f.testResult?.to).toBe(T0 + (f.testWindow.skip + 200) * HOUR);
    });
  }, 120_000);

  it('halyard check of two symbols: pair-rotation passes, history counted in periods and every symbol\'s orders compared', async () => {
    const json = join(dir, 'check.json');
    const r = await check(['--strategy', 'pair-rotation', '--param', 'rebalance=1', '--startups', '0,50', '--json', json]);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^Checked pair-rotation on BTCPHP, ETHPHP \(one account\) 1h, .* \(\d+ periods\), warmup 25: 2 runs with 24, 74 periods of history before the range/m);
    expect(r.out).toMatch(/^Orders: stable with warmup 25 \(every run sent the same \d+ intents\)\.$/m);
    expect(r.out).toContain("Plot 'BTCPHP momentum %': stable");
    expect(r.out).toContain("Plot 'ETHPHP momentum %': stable");
    expect(r.out).toContain('Result: every check passed.');
    expect(r.code).toBe(0);
    const saved = JSON.parse(readFileSync(json, 'utf8')) as { symbol: string; symbols: string[]; bars: number; orders: { runs: { intents: number }[] } };
    expect(saved.symbol).toBe('BTCPHP,ETHPHP');
    expect(saved.symbols).toEqual(['BTCPHP', 'ETHPHP']);
    // From the 25 + 50th period on: 720 - 75.
    expect(saved.bars).toBe(645);
    expect(saved.orders.runs[0]!.intents).toBeGreaterThan(0);
  });

  it('halyard check of two symbols finds an EMA(50) each that a warmup of 10 leaves unsettled, naming the line of each symbol', async () => {
    const r = await check(['--strategy', emaPairFile(), '--startups', '0,100']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^Checked ema-pair on BTCPHP, ETHPHP \(one account\) 1h, .*: 2 runs with 9, 109 periods of history/m);
    expect(r.out).toMatch(/^Plot 'BTCPHP ema': differs even between 9 periods and 109 periods of history/m);
    expect(r.out).toMatch(/^Plot 'ETHPHP ema': differs even between/m);
    // The reference has its averages from the range's second period on: it buys there, the run with the warm-up alone cannot yet.
    expect(r.out).toMatch(/^Orders: differs even between 9 periods and 109 periods of history \(with 9 periods of history, first at .*: it sent nothing, the reference place side=BUY type=MARKET quoteOrderQty=1000 symbol=(BTC|ETH)PHP\)/m);
    expect(r.out).toMatch(/^Plot 'BTCPHP ema': differs even between 9 periods and 109 periods of history \(with 9 periods of history it has no value where the reference has one/m);
    expect(r.out).toContain('Result: a check found a difference (exit code 1).');
  });

  it('refuses symbols of different quote assets, a symbol twice, and halyard check of symbols the strategy does not trade', async () => {
    const usdt = await run(['backtest', '--strategy', 'pair-rotation', '--symbol', 'BTCPHP,BTCUSDT', '--interval', '1h', '--journal', journal, '--param', 'symbols=BTCPHP,BTCUSDT']);
    expect(usdt.code).toBe(2);
    // The journal has no BTCUSDT bars: that is said first; with bars it would say the quote assets differ.
    expect(usdt.err).toContain('no BTCUSDT 1h bars');
    const twice = await run([...base(['BTCPHP,BTCPHP'])]);
    expect(twice.err).toContain('--symbol BTCPHP is given twice');
    const other = await check(['--strategy', 'sma-crossover']);
    expect(other.code).toBe(2);
    expect(other.err).toContain("strategy 'sma-crossover' trades BTCPHP on 1h with these parameters, not BTCPHP, ETHPHP 1h");
  });

  it('refuses a strategy that does not trade the symbols, naming them', async () => {
    const r = await run(['backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP,ETHPHP', '--interval', '1h', '--journal', journal]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("strategy 'sma-crossover' trades BTCPHP on 1h with these parameters, not BTCPHP, ETHPHP 1h");
  });
});
