/** `halyard backtest` (src/cli/commands/backtest/backtest.ts) parsed as the CLI does, against temp journals. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestCommand } from '../src/cli/commands/backtest/backtest.ts';
import { runCommand } from '../src/cli/test-support.ts';
import { generateSeries } from '../src/core/synthetic/index.ts';
import { resampleBars } from '../src/data/resample.ts';
import { openJournal } from '../src/journal/journal.ts';

let dir: string;
let journal: string;
const T0 = Date.UTC(2024, 0, 1);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-bt-cli-'));
  journal = join(dir, 'j.db');
  const j = openJournal(journal);
  const series = generateSeries({ seed: 4, startTime: T0, segments: [{ regime: 'slowUp', bars: 1500 }, { regime: 'slowDown', bars: 1500 }] });
  j.klines.insertKlines([...series].map((c) => ({ symbol: 'BTCPHP', interval: '1m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
  j.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (argv: string[]) => runCommand(backtestCommand, argv, { config: true });

const base = () => ['backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--interval', '1m', '--journal', journal, '--out-dir', join(dir, 'out')];

describe('halyard backtest', () => {
  it('runs, prints the summary and writes the JSON and the report', async () => {
    const json = join(dir, 'run.json');
    const report = join(dir, 'run.html');
    const r = await run([...base(), '--param', 'fast=5', '--param', 'slow=20', '--fee', '0.002', '--balance', 'PHP=50000', '--json', json, '--report', report, '--slippage-bps', '2']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('sma-crossover');
    expect(r.out).toContain(`json    ${json}`);
    expect(r.out).toContain(`report  ${report}`);
    expect(r.out).toContain("rules   rules from the sandbox config (no exchangeInfo snapshot in the journal lists BTCPHP): tick, lot and notional may not be the real exchange's; give them with --exchange-info FILE");
    const saved = JSON.parse(readFileSync(json, 'utf8')) as { run: { barCount: number; params: Record<string, unknown>; fees: unknown; startBalances: unknown; fills: unknown[]; fillModel: unknown } };
    expect(saved.run).toMatchObject({ barCount: 3000, params: { fast: 5, slow: 20, symbol: 'BTCPHP' }, fees: { maker: '0.002', taker: '0.002' }, startBalances: { PHP: '50000' }, fillModel: { slippageBps: 2 } });
    expect(saved.run.fills.length).toBeGreaterThan(0);
    expect(readFileSync(report, 'utf8')).toContain('<html');
  });

  it('--csv writes the trades and the fills beside the JSON', async () => {
    const json = join(dir, 'csv', 'run.json');
    const r = await run([...base(), '--json', json, '--csv']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`csv     ${join(dir, 'csv', 'run-trades.csv')}`);
    const fills = readFileSync(join(dir, 'csv', 'run-fills.csv'), 'utf8').trim().split('\r\n');
    const saved = JSON.parse(readFileSync(json, 'utf8')) as { run: { fills: unknown[]; trades: unknown[] } };
    expect(fills).toHaveLength(saved.run.fills.length + 1);
    expect(fills[0]).toBe('time,time_ms,symbol,side,price,qty,quote_qty,commission,commission_asset,is_maker,order_id,client_order_id,trade_id,tag');
    // The SMA crossover tags its orders: each fill says which.
    expect(fills.slice(1).every((l) => l.endsWith(',entry') || l.endsWith(',exit'))).toBe(true);
    expect(readFileSync(join(dir, 'csv', 'run-trades.csv'), 'utf8').trim().split('\r\n')).toHaveLength(saved.run.trades.length + 1);
  });

  it('--breakdown prints the run by calendar period; an unknown period is a usage error', async () => {
    const r = await run([...base(), '--breakdown', 'day', '--breakdown', 'day']);
    expect(r.code).toBe(0);
    // 3,000 minutes from 2024-01-01 00:00: three UTC days, printed once however often asked.
    expect(r.out.match(/^By day$/gm)).toHaveLength(1);
    expect(r.out).toMatch(/^ {2}day +return +end equity \(PHP\) +trades +won\/flat\/lost +PnL \(PHP\)\n {2}2024-01-01 .*\n {2}2024-01-02 .*\n {2}2024-01-03 /m);
    // Refused by the parser (the real CLI exits 2 on it, as on any usage error).
    const bad = await run([...base(), '--breakdown', 'year']);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/Invalid values?:[\s\S]*breakdown[\s\S]*"year"/);
  });

  it('says which missing bars the exchange had no trades for (ranges record checked) and which are gaps in the data', async () => {
    const file = join(dir, 'quiet.db');
    const j = openJournal(file);
    const series = [...generateSeries({ seed: 5, startTime: T0, segments: [{ regime: 'flat', bars: 200 }] })];
    // Minutes 50-52 and 120-123 are missing; record checked 0-100 (no trades in 50-52), not 120-123.
    const kept = series.filter((_, i) => !(i >= 50 && i <= 52) && !(i >= 120 && i <= 123));
    j.klines.insertKlines(kept.map((c) => ({ symbol: 'BTCPHP', interval: '1m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
    j.klineChecked.add('BTCPHP', '1m', T0, T0 + 100 * 60_000);
    j.close();
    const args = ['backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--interval', '1m', '--journal', file, '--out-dir', join(dir, 'quiet')];
    const r = await run(args);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Range .*, 193 bars, 7 missing: 3 without trades at the exchange, 4 gaps in the data\)$/m);
    const saved = JSON.parse(readFileSync(join(dir, 'quiet', 'sma-crossover-BTCPHP-1m-2024-01-01-2024-01-01.json'), 'utf8')) as { run: { missingBars: number; missingNoTrades: number } };
    expect(saved.run).toMatchObject({ missingBars: 7, missingNoTrades: 3 });
    // Every missing bar checked: a quiet market, not a data problem.
    const all = openJournal(file);
    all.klineChecked.add('BTCPHP', '1m', T0, T0 + 200 * 60_000);
    all.close();
    expect((await run(args)).out).toMatch(/^Range .*, 193 bars, 7 missing: no trades at the exchange then\)$/m);
  });

  it('honours --from / --to and writes default file names under --out-dir', async () => {
    const r = await run([...base(), '--from', '2024-01-01T10:00', '--to', '2024-01-01T20:00']);
    expect(r.code).toBe(0);
    const file = join(dir, 'out', 'sma-crossover-BTCPHP-1m-2024-01-01-2024-01-01.json');
    expect(existsSync(file)).toBe(true);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { run: { barCount: number } }).run.barCount).toBe(600);
  });

  it('an unknown strategy lists the available ones', async () => {
    const r = await run([...base().map((a) => (a === 'sma-crossover' ? 'nope' : a))]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown strategy 'nope'; available in .*: .*grid.*sma-crossover/);
  });

  it('a bad parameter is named with the reason', async () => {
    const r = await run([...base(), '--param', 'fast=x']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`param 'fast': expected integer >= 2, got "x"`);
    const unknown = await run([...base(), '--param', 'fats=3']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/fats/);
    const malformed = await run([...base(), '--param', 'fast']);
    expect(malformed.err).toContain('write it as name=value');
  });

  it('a date range with no data says what the journal holds', async () => {
    const r = await run([...base(), '--from', '2025-01-01']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('no BTCPHP 1m bars in 2025-01-01T00:00Z .. the end; the journal holds 2024-01-01T00:00Z .. 2024-01-03T01:59Z (3000 bars)');
  });

  it('a symbol without bars lists the series held', async () => {
    const r = await run(['backtest', '--strategy', 'sma-crossover', '--symbol', 'ETHPHP', '--interval', '1m', '--journal', journal, '--out-dir', join(dir, 'out')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('no ETHPHP 1m bars in');
    expect(r.err).toContain('it holds BTCPHP 1m (3000 bars');
  });

  it('a symbol with no rules anywhere says how to give them; --exchange-info gives them from a file, or from the journal once imported with them', async () => {
    const j = openJournal(journal);
    const series = generateSeries({ seed: 5, startTime: T0, segments: [{ regime: 'slowUp', bars: 300 }, { regime: 'sharpDown', bars: 300 }] });
    j.klines.insertKlines([...series].map((c) => ({ symbol: 'LINKPHP', interval: '1m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
    j.close();
    const args = ['backtest', '--strategy', 'sma-crossover', '--symbol', 'LINKPHP', '--interval', '1m', '--journal', journal, '--out-dir', join(dir, 'out')];
    const none = await run(args);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/no exchange rules for LINKPHP: .*--exchange-info RULES\.json/);

    const link = { symbol: 'LINKPHP', status: 'TRADING', baseAsset: 'LINK', baseAssetPrecision: 8, quoteAsset: 'PHP', quoteAssetPrecision: 2, filters: [{ filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '100000', tickSize: '0.01' }, { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '10000', stepSize: '0.001' }] };
    const rules = join(dir, 'link-rules.json');
    writeFileSync(rules, JSON.stringify(link));
    const ok = await run([...args, '--exchange-info', rules]);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.out).toContain(`rules   exchangeInfo from ${rules}`);
    expect(ok.out).toMatch(/Balances +10,000.00 PHP ->/);

    const bad = await run([...args, '--exchange-info', join(dir, 'missing-rules.json')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/cannot read the exchange rules file .*missing-rules\.json: no such file/);

    const w = openJournal(journal);
    w.exchangeInfo.save(T0, { symbols: [link] });
    w.close();
    const saved = await run(args);
    expect(saved.code).toBe(0);
    expect(saved.out).toContain('rules   exchangeInfo from the journal');
  });

  it('writes what the strategy logged beside the JSON and shows the first line; a quiet strategy leaves no log file', async () => {
    const strategy = join(dir, 'chatty.mts');
    const index = fileURLToPath(new URL('../src/strategy/index.ts', import.meta.url));
    writeFileSync(
      strategy,
      `import { defineStrategy, z } from ${JSON.stringify(index)};
export default defineStrategy({ name: 'chatty', params: z.object({ symbol: z.string().default('BTCPHP'), interval: z.string().default('1m') }), symbols: (p) => [p.symbol], intervals: (p) => [p.interval],
  state: () => ({ n: 0 }), onBar(ctx, bar) { if (++ctx.state.n % 1000 === 0) ctx.log('bar ' + ctx.state.n, { close: bar.close }); } });
`,
    );
    const out = join(dir, 'logs');
    const r = await run(['backtest', '--strategy', strategy, '--symbol', 'BTCPHP', '--interval', '1m', '--journal', journal, '--out-dir', out]);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/Log +3 line\(s\) from the strategy; first: 2024-01-01 16:40 UTC {2}bar 1000 \{"close":[0-9.]+\}/);
    const file = join(out, 'chatty-BTCPHP-1m-2024-01-01-2024-01-03.log');
    expect(r.out).toContain(`log     ${file}`);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3);
    expect(readdirSync(out).filter((f) => f.endsWith('.part'))).toEqual([]);

    // Every output path is printed as typed, relative ones too: the JSON's, the report's, and the CSV and log files named after the JSON.
    const rel = (p: string) => relative(process.cwd(), p);
    const typed = { json: rel(join(dir, 'typed', '.', 'run.json')), report: rel(join(dir, 'typed-report', 'run.html')) };
    expect(typed.json.startsWith('/')).toBe(false);
    const asTyped = await run(['backtest', '--strategy', strategy, '--symbol', 'BTCPHP', '--interval', '1m', '--journal', journal, '--json', typed.json, '--report', typed.report, '--csv']);
    expect(asTyped.err).toBe('');
    const base = typed.json.replace(/\.json$/, '');
    expect(asTyped.out.split('\n').filter((l) => /^(json|report|csv|log) /.test(l))).toEqual([`json    ${typed.json}`, `report  ${typed.report}`, `csv     ${base}-trades.csv`, `csv     ${base}-fills.csv`, `log     ${base}.log`]);
    expect(readFileSync(join(dir, 'typed', 'run.log'), 'utf8').trim().split('\n')).toHaveLength(3);

    const quiet = await run(['backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--interval', '1m', '--journal', journal, '--out-dir', join(dir, 'quiet')]);
    expect(quiet.err).toBe('');
    expect(quiet.code).toBe(0);
    expect(quiet.out).not.toMatch(/^Log /m);
    expect(readdirSync(join(dir, 'quiet')).filter((f) => f.endsWith('.log') || f.endsWith('.part'))).toEqual([]);
  });

  it('a journal that does not exist says how to fill one', async () => {
    const r = await run(['backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--interval', '1m', '--journal', join(dir, 'none', 'j.db')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no journal at .*none\/j\.db: fill it with `halyard import FILE\.csv` or `halyard record`, or name another with --journal/);
  });

  it('backtests an interval the journal does not hold from the shorter bars that tile it', async () => {
    const json = join(dir, 'five.json');
    const r = await run([...base().map((a) => (a === '1m' ? '5m' : a)), '--json', json, '--from', '2024-01-01T00:03']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('bars    5m (made from its 1m bars)');
    const saved = JSON.parse(readFileSync(json, 'utf8')) as { run: { interval: string; barCount: number; from: number } };
    // 3000 one-minute bars make 600; --from 00:03 starts at the first whole period, 00:05
    expect(saved.run).toMatchObject({ interval: '5m', barCount: 599, from: T0 + 5 * 60_000 });
    const none = await run([...base().map((a) => (a === 'BTCPHP' ? 'ETHPHP' : a))]);
    expect(none.err).toMatch(/no ETHPHP 1m bars in .*, nor shorter ones that make them/);
  });

  it('--detail plays the fills on shorter stored bars while the strategy sees the interval made from them', async () => {
    const args = [...base().map((a) => (a === '1m' ? '5m' : a)), '--param', 'fast=3', '--param', 'slow=8'];
    const r = await run([...args, '--detail', '1m', '--json', join(dir, 'detail.json')]);
    expect(r.err).toBe('');
    expect(r.out).toContain('bars    5m (made from its 1m bars, fills played on them)');
    expect((JSON.parse(readFileSync(join(dir, 'detail.json'), 'utf8')) as { run: { barCount: number } }).run.barCount).toBe(600);
    expect((await run([...args, '--detail', '15m'])).err).toMatch(/--detail 15m: 15m bars do not tile 5m ones/);
    // No 3m bars stored: the minutes make them (the next test plays such bars against stored ones).
    const three = await run([...args.map((a) => (a === '5m' ? '1h' : a)), '--detail', '3m']);
    expect([three.code, three.err]).toEqual([0, '']);
    expect(three.out).toContain('bars    1h (made from its 1m bars, fills played on 3m bars made from them)');
  });

  it('--detail 5m on a journal of minutes plays the fills on 5m bars made from them, as on stored 5m bars; neither is an error', async () => {
    // The same market stored as 5m bars (made from the minutes by the aggregation the backtest uses).
    const fives = join(dir, 'fives.db');
    const j = openJournal(fives);
    const minutes = generateSeries({ seed: 4, startTime: T0, segments: [{ regime: 'slowUp', bars: 1500 }, { regime: 'slowDown', bars: 1500 }] });
    j.klines.insertKlines([...resampleBars(minutes, '5m')].map((c) => ({ symbol: 'BTCPHP', interval: '5m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
    j.close();
    // A grid's LIMIT orders fill where the detail bars' path reaches them: 5m bars and 1m bars differ.
    const grid = (file: string, detail: string, json: string, extra: string[] = []) =>
      run(['backtest', '--strategy', 'grid', '--symbol', 'BTCPHP', '--interval', '15m', '--journal', file, '--out-dir', join(dir, 'out'), ...['--param', 'lower=980', '--param', 'upper=1060', '--param', 'levels=41', '--balance', 'PHP=100000'], '--detail', detail, '--json', join(dir, json), ...(extra.length === 0 ? ['--param', 'quantity=0.2'] : extra)]);
    const fills = (json: string) => (JSON.parse(readFileSync(join(dir, json), 'utf8')) as { run: { fills: unknown[] } }).run.fills;
    const made = await grid(journal, '5m', 'made5.json');
    expect([made.code, made.err]).toEqual([0, '']);
    expect(made.out).toContain('bars    15m (made from its 1m bars, fills played on 5m bars made from them)');
    const stored = await grid(fives, '5m', 'stored5.json');
    expect([stored.code, stored.err]).toEqual([0, '']);
    expect(stored.out).toContain('bars    15m (made from its 5m bars, fills played on them)');
    expect(fills('made5.json').length).toBeGreaterThan(0);
    expect(fills('made5.json')).toEqual(fills('stored5.json'));
    expect((await grid(journal, '1m', 'minutes.json')).code).toBe(0);
    expect(fills('minutes.json')).not.toEqual(fills('made5.json'));
    // A sweep's jobs play them the same way (the worker is told to make the 5m bars).
    const sweep = (file: string, json: string) => grid(file, '5m', json, ['--sweep', 'quantity=0.2,0.3', '--workers', '0']);
    const results = (json: string) => (JSON.parse(readFileSync(join(dir, json), 'utf8')) as { results: { values: unknown; metrics: unknown }[] }).results.map((r) => [r.values, r.metrics]);
    expect((await sweep(journal, 'made5-sweep.json')).err).toBe('');
    expect((await sweep(fives, 'stored5-sweep.json')).err).toBe('');
    expect(results('made5-sweep.json')).toEqual(results('stored5-sweep.json'));
    expect((await grid(journal, '1m', 'minutes-sweep.json', ['--sweep', 'quantity=0.2,0.3', '--workers', '0'])).err).toBe('');
    expect(results('minutes-sweep.json')).not.toEqual(results('made5-sweep.json'));
    // Neither 3m bars nor shorter ones that make them (5m does not divide 3m): the option and the reason.
    const none = await grid(fives, '3m', 'none.json');
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/^error: --detail 3m: no BTCPHP 3m bars in .*fives\.db, nor shorter ones that make them; it holds BTCPHP 5m \(600 bars/);
  });

  it('a file that is not a Halyard journal is refused', async () => {
    const bogus = join(dir, 'prices.csv');
    writeFileSync(bogus, 'open,high,low,close\n1,2,3,4\n');
    const r = await run([...base().map((a) => (a === journal ? bogus : a))]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/not a SQLite database/);
    const missing = await run([...base().map((a) => (a === journal ? join(dir, 'none.db') : a))]);
    expect(missing.code).toBe(2);
  });

  it('bad numbers and dates are usage errors', async () => {
    expect((await run([...base(), '--fee', 'abc'])).err).toContain("--fee 'abc' is not a rate");
    expect((await run([...base(), '--fee', '1e-3'])).err).toContain("--fee '1e-3' is not a rate such as 0.001 (a plain decimal in [0, 1))");
    expect((await run([...base(), '--balance', 'PHP=1e4'])).err).toContain("--balance PHP: '1e4' is not an amount >= 0 written as a plain decimal");
    expect((await run([...base(), '--volume-share', '3'])).err).toContain("--volume-share: expected a number in (0, 1], got '3'");
    expect((await run([...base(), '--from', 'yesterday'])).err).toContain("--from 'yesterday' is not a date");
    expect((await run([...base(), '--from', '1709251200'])).err).toContain("--from '1709251200' is not a date (2024-03-01, 2024-03-01T12:00, 2024-03-01T12:00+08:00 or epoch ms; 1709251200 looks like epoch seconds: in ms that is 1709251200000)");
    expect((await run([...base(), '--balance', 'PHP'])).err).toContain('write it as ASSET=AMOUNT');
    expect((await run([...base(), '--sweep', 'fast=5,10', '--workers', '-2'])).err).toContain("--workers: expected a whole number of worker threads >= 0 (0 runs the sweep in this process), got '-2'");
  });

  it('--sweep runs the grid and ranks it; --walk-forward reports out-of-sample folds', async () => {
    const json = join(dir, 'sweep.json');
    const r = await run([...base(), '--sweep', 'fast=5,10', 'slow=20:40:20', '--workers', '0', '--json', json]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/4 combination\(s\)/);
    const saved = JSON.parse(readFileSync(json, 'utf8')) as { axes: unknown; results: { values: { fast: number; slow: number } }[] };
    // The axes' values are of their parameter's type, as the results' values are.
    expect(saved.axes).toEqual([
      { name: 'fast', values: [5, 10] },
      { name: 'slow', values: [20, 40] },
    ]);
    const top = saved.results[0]!.values;
    expect(r.out).toContain(`best    --param fast=${top.fast} --param slow=${top.slow}  (run it alone for its report)`);
    const wf = await run([...base(), '--sweep', 'fast=5,10', 'slow=20', '--walk-forward', '--folds', '2', '--workers', '0', '--json', join(dir, 'wf.json')]);
    expect(wf.err).toBe('');
    expect(wf.code).toBe(0);
    expect(wf.out).toMatch(/Out of sample/);
  });

  it('sweeps a required parameter without a --param of its own', async () => {
    const json = join(dir, 'grid-sweep.json');
    const r = await run(['backtest', '--strategy', 'grid', '--symbol', 'BTCPHP', '--interval', '1m', '--journal', journal, '--out-dir', join(dir, 'grid'), '--param', 'lower=900', '--param', 'upper=1100', '--sweep', 'quantity=0.01,0.02', '--workers', '0', '--json', json]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/2 combination\(s\) run/);
    // A quantity is money: decimal text in the axes and the results alike.
    const saved = JSON.parse(readFileSync(json, 'utf8')) as { axes: unknown; results: { values: Record<string, unknown> }[] };
    expect(saved.axes).toEqual([{ name: 'quantity', values: ['0.01', '0.02'] }]);
    expect(saved.results.map((e) => e.values['quantity']).sort()).toEqual(['0.01', '0.02']);
  });

  it('refuses a bad sweep spec and a walk-forward without a grid, naming the problem', async () => {
    const bad = await run([...base(), '--sweep', 'fast=x:1']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/fast=x:1/);
    const wf = await run([...base(), '--walk-forward']);
    expect(wf.code).toBe(2);
    expect(wf.err).toMatch(/--walk-forward needs a parameter grid/);
  });
});

describe('halyard backtest on bars made from shorter ones, the journal starting or ending inside a period', () => {
  const H = 3_600_000;
  const D0 = Date.UTC(2024, 2, 1);
  let partDir: string;
  /** A journal of BTCPHP 1m bars from `start`, `minutes` of them. */
  const minutes = (name: string, start: number, count: number): string => {
    const file = join(partDir, name);
    const j = openJournal(file);
    const series = generateSeries({ seed: 9, startTime: start, segments: [{ regime: 'sharpUp', bars: Math.floor(count / 2) }, { regime: 'sharpDown', bars: count - Math.floor(count / 2) }] });
    j.klines.insertKlines([...series].map((c) => ({ symbol: 'BTCPHP', interval: '1m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
    j.close();
    return file;
  };
  let endsInside: string;
  let both: string;
  let onlyPart: string;
  beforeAll(() => {
    partDir = mkdtempSync(join(tmpdir(), 'halyard-bt-partial-'));
    endsInside = minutes('ends.db', D0, 1000); // 00:00 .. 16:39
    both = minutes('both.db', D0 + 20 * 60_000, 980); // 00:20 .. 16:39
    onlyPart = minutes('part.db', D0 + 16 * H, 40); // 16:00 .. 16:39
  });
  afterAll(() => rmSync(partDir, { recursive: true, force: true }));

  const args = (file: string, json: string) => ['backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--interval', '1h', '--param', 'fast=2', '--param', 'slow=4', '--journal', file, '--out-dir', join(partDir, 'out'), '--json', join(partDir, json)];
  type Saved = { run: { from: number; to: number; barCount: number; equitySampled: { time: number }[]; fills: { time: number }[] } };
  const saved = (json: string) => (JSON.parse(readFileSync(join(partDir, json), 'utf8')) as Saved).run;

  it('a 1m journal ending at 16:39 backtests at 1h up to the last complete hour, and says the 16:00 one is left out', async () => {
    const r = await run(args(endsInside, 'ends.json'));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Range +2024-03-01 00:00 UTC -> 2024-03-01 16:00 UTC \(16h, 16 bars\)/);
    expect(r.out).toContain('bars    1h (made from its 1m bars; 1 partial period opening 2024-03-01T16:00Z left out)');
    const run1 = saved('ends.json');
    expect(run1).toMatchObject({ from: D0, to: D0 + 16 * H, barCount: 16 });
    // The sampled curve keeps the last point (series-output.ts).
    expect(run1.equitySampled.at(-1)!.time).toBe(D0 + 16 * H - 1);
    // Fills played on the minutes (--detail) stop with the last whole hour too.
    const d = await run([...args(endsInside, 'ends-detail.json'), '--detail', '1m']);
    expect(d.code).toBe(0);
    expect(d.out).toContain('bars    1h (made from its 1m bars, fills played on them; 1 partial period opening 2024-03-01T16:00Z left out)');
    const run2 = saved('ends-detail.json');
    expect(run2).toMatchObject({ from: D0, to: D0 + 16 * H, barCount: 16 });
    expect(run2.fills.every((f) => f.time < D0 + 16 * H)).toBe(true);
  });

  it('leaves out a first hour the journal starts inside as well; a range that ends on a whole hour leaves out nothing', async () => {
    const r = await run(args(both, 'both.json'));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Range +2024-03-01 01:00 UTC -> 2024-03-01 16:00 UTC \(15h, 15 bars\)/);
    expect(r.out).toContain('bars    1h (made from its 1m bars; 2 partial periods opening 2024-03-01T00:00Z and 2024-03-01T16:00Z left out)');
    expect(saved('both.json')).toMatchObject({ from: D0 + H, to: D0 + 16 * H, barCount: 15 });
    const cut = await run([...args(both, 'cut.json'), '--from', '2024-03-01T02:00', '--to', '2024-03-01T12:00']);
    expect(cut.code).toBe(0);
    expect(cut.out).toContain('bars    1h (made from its 1m bars)\n');
    expect(saved('cut.json')).toMatchObject({ from: D0 + 2 * H, to: D0 + 12 * H, barCount: 10 });
  });

  it('a range of partial periods only is a usage error naming the range and what the journal holds', async () => {
    const r = await run([...args(endsInside, 'none.json'), '--from', '2024-03-01T16:00']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('no complete BTCPHP 1h bars in 2024-03-01T16:00Z .. the end: its 1m bars there (2024-03-01T16:00Z .. 2024-03-01T16:39Z) cover only part of the 1h period opening 2024-03-01T16:00Z; the journal holds 2024-03-01T00:00Z .. 2024-03-01T15:00Z (made from its 1m bars)');
    const only = await run(args(onlyPart, 'none.json'));
    expect(only.code).toBe(2);
    expect(only.err).toContain('no complete BTCPHP 1h bars in the journal: its 1m bars there (2024-03-01T16:00Z .. 2024-03-01T16:39Z) cover only part of the 1h period opening 2024-03-01T16:00Z');
    const day = await run([...args(both, 'none.json').map((a) => (a === '1h' ? '1d' : a))]);
    expect(day.code).toBe(2);
    expect(day.err).toContain('no complete BTCPHP 1d bars in the journal: its 1m bars there (2024-03-01T00:20Z .. 2024-03-01T16:39Z) cover only part of the 1d period opening 2024-03-01T00:00Z');
    expect(existsSync(join(partDir, 'none.json'))).toBe(false);
  });

  it('a sweep and a walk-forward count the same bars as are played', async () => {
    const json = join(partDir, 'sweep.json');
    // The run's arguments without --json and without the fixed fast (a parameter is fixed or swept, not both).
    const swept = args(endsInside, 'x.json').filter((a, i, all) => a !== '--json' && all[i - 1] !== '--json' && a !== 'fast=2' && !(a === '--param' && all[i + 1] === 'fast=2'));
    const r = await run([...swept, '--sweep', 'fast=2,3', '--workers', '0', '--json', json]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const results = (JSON.parse(readFileSync(json, 'utf8')) as { results: { bars: number; to: number }[] }).results;
    expect(results.map((x) => [x.bars, x.to])).toEqual([
      [16, D0 + 16 * H],
      [16, D0 + 16 * H],
    ]);
    const wfJson = join(partDir, 'wf.json');
    const wf = await run([...swept, '--sweep', 'fast=2,3', '--walk-forward', '--folds', '1', '--train-bars', '8', '--test-bars', '8', '--workers', '0', '--json', wfJson]);
    expect(wf.err).toBe('');
    expect(wf.code).toBe(0);
    const plan = JSON.parse(readFileSync(wfJson, 'utf8')) as { totalBars: number; folds: { testResult: { to: number; bars: number } | null }[] };
    expect(plan.totalBars).toBe(16);
    expect(plan.folds.at(-1)!.testResult).toMatchObject({ to: D0 + 16 * H, bars: 8 });
  });
});

describe('halyard backtest: bad input is refused by name, exit 2', () => {
  it('--param: a number other than a plain decimal, a name given twice; --balance: an asset given twice, an amount too large', async () => {
    const hex = await run([...base(), '--param', 'fast=0x10']);
    expect(hex.code).toBe(2);
    expect(hex.err).toContain("--param fast: '0x10' is not a plain decimal number");
    const twice = await run([...base(), '--param', 'fast=10', '--param', 'fast=12']);
    expect(twice.code).toBe(2);
    expect(twice.err).toContain('--param fast was given twice (fast=10, fast=12): give it once');
    const balance = await run([...base(), '--balance', 'PHP=100', '--balance', 'PHP=200']);
    expect(balance.code).toBe(2);
    expect(balance.err).toContain('--balance PHP was given twice (PHP=100, PHP=200): give it once');
    const huge = await run([...base(), '--balance', 'PHP=1000000000000000000000000000000']);
    expect(huge.code).toBe(2);
    expect(huge.err).toContain("--balance PHP: '1000000000000000000000000000000' is more than the 9007199254740991 whole units a balance can hold");
  });

  it('--sweep: a value its parameter rejects is refused whatever its place; points breaking only slow > fast are skipped and counted', async () => {
    for (const spec of ['fast=1,5', 'fast=5,1']) {
      const r = await run([...base(), '--sweep', spec, '--workers', '0']);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`bad --sweep spec '${spec}': param 'fast': expected integer >= 2, got number 1`);
    }
    const abc = await run([...base(), '--sweep', 'quoteAmount=100,abc', '--workers', '0']);
    expect(abc.code).toBe(2);
    expect(abc.err).toContain(`param 'quoteAmount': expected a decimal such as "0.01", got "abc"`);
    const cross = await run([...base(), '--sweep', 'fast=10,20', 'slow=20,30', '--workers', '0', '--json', join(dir, 'cross.json')]);
    expect(cross.code).toBe(0);
    expect(cross.out).toContain("1 combination(s) skipped, rejected by the params schema; e.g. fast=20 slow=20: param 'slow': slow must be greater than fast");
  });

  it('a parameter both fixed and swept, and an option its mode does not read, are refused naming them', async () => {
    const both = await run([...base(), '--param', 'fast=7', '--sweep', 'fast=5,10']);
    expect(both.code).toBe(2);
    expect(both.err).toContain("parameter 'fast' is both fixed (--param fast=7) and swept (--sweep fast=5,10): give one of them");
    for (const [flag, value] of [['--folds', '3'], ['--train-bars', '100'], ['--test-bars', '50'], ['--anchored', undefined]] as const) {
      const r = await run([...base(), '--sweep', 'fast=5,10', flag, ...(value === undefined ? [] : [value])]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`${flag} is a walk-forward setting: it needs --walk-forward`);
    }
    const rank = await run([...base(), '--rank-by', 'sortino']);
    expect(rank.code).toBe(2);
    expect(rank.err).toContain('--rank-by ranks a sweep or several strategies: it needs --sweep name=start:stop:step ... or --strategy given more than once');
    const workers = await run([...base(), '--workers', '2']);
    expect(workers.code).toBe(2);
    expect(workers.err).toContain('--workers applies to a sweep: it needs --sweep');
  });

  it('--walk-forward refuses windows no longer than the warmup, or empty, and says when bars go unused', async () => {
    const wf = [...base(), '--sweep', 'fast=5,10', 'slow=30,40', '--walk-forward', '--workers', '0', '--json', join(dir, 'wf-short.json')];
    const many = await run([...wf, '--folds', '1000']);
    expect(many.code).toBe(2);
    expect(many.err).toContain("walk-forward: the train window of 6 bars and the test window of 2 bars are not longer than the strategy's warmup of 41 bars (sma-crossover at fast=5 slow=40, the largest across the grid)");
    const small = await run([...wf, '--train-bars', '10', '--test-bars', '5']);
    expect(small.code).toBe(2);
    expect(small.err).toContain('the train window of 10 bars and the test window of 5 bars are not longer');
    const long = await run([...wf, '--train-bars', '100000']);
    expect(long.code).toBe(2);
    expect(long.err).toContain('a train window of 100000 bars leaves 0 bars for 4 test window(s); the data has 3000 bars');
    expect(long.err).not.toMatch(/-\d/);
    const ok = await run([...wf, '--train-bars', '1000', '--test-bars', '500', '--folds', '2']);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('1000 bar(s) after the last test window are not used by any fold');
  });

  it('--balance of an asset the symbol does not trade is refused, listing the two it does', async () => {
    for (const asset of ['PPH', 'FOO']) {
      const r = await run([...base(), '--balance', `${asset}=10000`]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`--balance ${asset}: BTCPHP trades BTC against PHP; give a balance of BTC or PHP`);
    }
    const sweep = await run([...base(), '--balance', 'USD=5', '--sweep', 'fast=5,10', '--workers', '0']);
    expect(sweep.code).toBe(2);
    expect(sweep.err).toContain('--balance USD: BTCPHP trades BTC against PHP');
  });

  it('number options echo the text as typed and name the flag', async () => {
    const cases: [string[], string][] = [
      [['--slippage-bps', 'abc'], "--slippage-bps: expected a number in [0, 10000), got 'abc'"],
      [['--slippage-bps', '0x10'], "--slippage-bps: expected a number in [0, 10000), got '0x10'"],
      [['--volume-share', 'abc'], "--volume-share: expected a number in (0, 1], got 'abc'"],
      [['--sweep', 'fast=5,10', '--workers', 'two'], "--workers: expected a whole number of worker threads >= 0 (0 runs the sweep in this process), got 'two'"],
      [['--sweep', 'fast=5,10', '--walk-forward', '--folds', 'abc'], "--folds: expected a whole number >= 1, got 'abc'"],
      [['--sweep', 'fast=5,10', '--walk-forward', '--train-bars', '0'], "--train-bars: expected a whole number >= 1, got '0'"],
      [['--sweep', 'fast=5,10', '--walk-forward', '--test-bars', '2.5'], "--test-bars: expected a whole number >= 1, got '2.5'"],
    ];
    for (const [args, message] of cases) {
      const r = await run([...base(), ...args]);
      expect(r.code).toBe(2);
      expect(r.err).toBe(`error: ${message}`);
    }
  });

  it('paths: a journal that is a directory, an output folder or file that cannot be one, are usage errors naming the flag', async () => {
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'x');
    const cases: [string[], string][] = [
      [['--journal', dir], `--journal ${dir} is a directory: name the journal file (e.g. ${join(dir, 'halyard.db')})`],
      [['--out-dir', file], `--out-dir ${file} exists and is not a directory: name a folder`],
      [['--out-dir', join(file, 'sub')], `--out-dir ${join(file, 'sub')}: ${file} is not a directory, so no folder can be made there`],
      [['--json', join(file, 'x.json')], `--json ${join(file, 'x.json')}: ${file} is not a directory, so the file cannot be written there`],
      [['--json', dir], `--json ${dir} is a directory: name a file`],
      [['--report', join(file, 'r.html')], `--report ${join(file, 'r.html')}: ${file} is not a directory, so the file cannot be written there`],
      [['--sweep', 'fast=5,10', '--json', join(file, 's.json')], `--json ${join(file, 's.json')}: ${file} is not a directory`],
    ];
    for (const [args, message] of cases) {
      // base() names --journal and --out-dir: the case's own replace them.
      const replaced = (a: string, i: number, all: string[]) => [a, all[i - 1]].some((x) => x !== undefined && x.startsWith('--') && args.includes(x));
      const r = await run([...base().filter((a, i, all) => !replaced(a, i, all)), ...args]);
      expect(r.err).toContain(`error: ${message}`);
      expect(r.code).toBe(2);
    }
  });

  it('a sweep and a walk-forward print one header line; --workers 0 says the sweep ran in this process', async () => {
    const r = await run([...base(), '--sweep', 'fast=5,10', '--workers', '0', '--json', join(dir, 'one-header.json')]);
    expect(r.code).toBe(0);
    expect(r.out.split('\n').filter((l) => l.startsWith('Sweep of'))).toEqual(['Sweep of sma-crossover on BTCPHP 1m: 2 combination(s) run in this process, ranked by sharpe']);
    const wf = await run([...base(), '--sweep', 'fast=5,10', '--walk-forward', '--folds', '2', '--workers', '0', '--json', join(dir, 'one-header-wf.json')]);
    expect(wf.code).toBe(0);
    const heads = wf.out.split('\n').filter((l) => l.startsWith('Walk-forward of'));
    expect(heads).toHaveLength(1);
    expect(heads[0]).toMatch(/^Walk-forward of sma-crossover on BTCPHP 1m: 2 fold\(s\) of 2 parameter set\(s\), rolling train/);
  });
});

