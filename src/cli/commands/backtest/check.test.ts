/**
 * `halyard check` on a small temp journal: a strategy whose warm-up suffices passes (exit 0), one
 * whose EMA needs more history than its warm-up gives is a finding (exit 1, the history it needs
 * named), and bad input is exit 2 with a message saying what there is. The run options it shares
 * with `halyard backtest` (--balance, --fee, --exchange-info, --detail, the fill model) reach its
 * runs and are refused with backtest's messages.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSeries } from '../../../core/synthetic/index.ts';
import { openJournal } from '../../../journal/journal.ts';
import type { CliIo } from '../../io.ts';
import { runCommand } from '../../test-support.ts';
import { backtestCommand } from './backtest.ts';
import { checkCommand, parseStartups, parseTolerance } from './check.ts';

const INDEX = fileURLToPath(new URL('../../../strategy/index.ts', import.meta.url));
const T0 = Date.UTC(2024, 0, 1);
let dir: string;
let journal: string;

/** A long-when-above-its-average strategy file: `kind`(period) with `warmup`. */
function strategyFile(name: string, kind: 'ema' | 'sma', warmup: number): string {
  const file = join(dir, `${name}.mts`);
  writeFileSync(
    file,
    `import { defineStrategy, place, z } from ${JSON.stringify(INDEX)};
export default defineStrategy({
  name: '${name}',
  params: z.object({ period: z.number().int().default(50) }),
  symbols: ['BTCPHP'],
  intervals: ['1m'],
  warmup: ${warmup},
  onBar(ctx, bar) {
    const avg = ctx.bars().${kind}(ctx.params.period).value;
    ctx.plot('avg', avg);
    if (avg === undefined) return;
    if (ctx.position().flat && Number(bar.close) > avg) return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: '1000' })];
    if (!ctx.position().flat && Number(bar.close) < avg) return [place({ symbol: ctx.symbol, side: 'SELL', type: 'MARKET', quantity: ctx.instrument().capQty(ctx.position().base) })];
  },
});
`,
  );
  return file;
}

/**
 * Sized by its balance: buys with a fifth of its free PHP, and only while it holds 20000 of it, so
 * the default 10000 never trades. SMA(20) with warmup 20: every run decides alike.
 */
function sizedFile(): string {
  const file = join(dir, 'sized.mts');
  writeFileSync(
    file,
    `import { defineStrategy, place, z } from ${JSON.stringify(INDEX)};
export default defineStrategy({
  name: 'sized',
  params: z.object({ symbols: z.array(z.string()).default(['BTCPHP']) }),
  symbols: (p) => p.symbols,
  intervals: ['1m'],
  warmup: 20,
  onBar(ctx, bar) {
    const symbol = bar.symbol;
    const avg = ctx.bars(symbol).sma(20).value;
    if (avg === undefined) return;
    const free = ctx.balance('PHP').free;
    const position = ctx.position(symbol);
    if (position.flat && Number(bar.close) > avg && free.gte(20000)) return [place({ symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: free.div(5).toFixed(2) })];
    if (!position.flat && Number(bar.close) < avg) return [place({ symbol, side: 'SELL', type: 'MARKET', quantity: ctx.instrument(symbol).capQty(position.base) })];
  },
});
`,
  );
  return file;
}

let ema10: string;
let sma: string;
let sized: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-check-'));
  journal = join(dir, 'j.db');
  const j = openJournal(journal);
  const series = generateSeries({ seed: 5, startTime: T0, segments: [{ regime: 'slowUp', bars: 700 }, { regime: 'slowDown', bars: 700 }] });
  j.klines.insertKlines([...series].map((c) => ({ symbol: 'BTCPHP', interval: '1m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
  // ETHPHP for the checks of several symbols; LINKPHP has no rules in the journal nor the sandbox config.
  for (const [symbol, seed] of [['ETHPHP', 6], ['LINKPHP', 7]] as const) {
    const other = generateSeries({ seed, startTime: T0, segments: [{ regime: 'slowDown', bars: 700 }, { regime: 'slowUp', bars: 700 }] });
    j.klines.insertKlines([...other].map((c) => ({ symbol, interval: '1m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
  }
  j.close();
  ema10 = strategyFile('ema-short', 'ema', 10);
  sma = strategyFile('sma-ok', 'sma', 50);
  sized = sizedFile();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `halyard check` with the journal; the code is the exit code the command set, else reportError's. */
async function check(extra: string[], symbol = 'BTCPHP', interval = '1m') {
  let set: number | undefined;
  const r = await runCommand((io: CliIo) => checkCommand(io, (c) => (set = c)), ['check', '--symbol', symbol, '--interval', interval, '--journal', journal, ...extra], { config: true });
  return { ...r, code: set ?? r.code };
}

describe('halyard check', () => {
  it('passes an SMA strategy whose warm-up covers its period: exit 0, one line a check', async () => {
    const json = join(dir, 'sma.json');
    const r = await check(['--strategy', sma, '--startups', '100,300', '--from', '2024-01-01T08:00', '--json', json]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe('Checked sma-ok on BTCPHP 1m, 2024-01-01T08:00Z .. 2024-01-01T23:20Z (920 bars), warmup 50: 3 runs with 49, 149, 349 bars of history before the range, each compared with the last (relative tolerance 1e-6).');
    expect(lines).toContain("Plot 'avg': stable with warmup 50 (identical in every run).");
    expect(r.out).toMatch(/^Orders: stable with warmup 50 \(every run sent the same \d+ intents\)\.$/m);
    expect(r.out).toMatch(/^Lookahead: the first part run alone \(to .*\) decided and plotted as the whole run did\.$/m);
    // Where the rules came from, as backtest says it, then the file.
    expect(r.out).toMatch(/^Result: every check passed\.\nrules {3}rules from the sandbox config .*\njson {4}.*sma\.json$/m);
    const saved = JSON.parse(readFileSync(json, 'utf8')) as { passed: boolean; startups: number[]; plots: { name: string; verdict: string }[] };
    expect([saved.passed, saved.startups, saved.plots.map((p) => [p.name, p.verdict])]).toEqual([true, [0, 100, 300], [['avg', 'stable']]]);
  });

  it('finds an EMA(50) with warmup 10: exit 1, and says how much history it needs', async () => {
    const r = await check(['--strategy', ema10, '--startups', '100,300,600']);
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    // Without --from: the first bar with the warm-up (9 bars) and the largest startup (600) before it.
    expect(r.out).toMatch(/^Checked ema-short on BTCPHP 1m, 2024-01-01T10:10Z .. 2024-01-01T23:20Z \(790 bars\), warmup 10: 4 runs with 9, 109, 309, 609 bars/m);
    // With 9 bars the EMA(50) has no value on the first bars; with 109 it is still off by more than a millionth.
    expect(r.out).toMatch(/^Plot 'avg': differs until 309 bars of history \(with 9 bars of history it has no value where the reference has one, or the reverse, first at 2024-01-01T10:11Z\): raise warmup to at least 310\.$/m);
    expect(r.out).toMatch(/^Result: a check found a difference \(exit code 1\)\.$/m);
  });

  it('passes the same EMA with a shorter period and a --param', async () => {
    const r = await check(['--strategy', ema10, '--param', 'period=2', '--startups', '100']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Plot 'avg': stable with warmup 10 /m);
  });

  it('bad input is exit 2 with a message: strategy, parameter, range, history, startups, tolerance', async () => {
    const cases: [string[], RegExp][] = [
      [['--strategy', 'no-such-strategy'], /^error: .*no-such-strategy/],
      [['--strategy', sma, '--param', 'period=abc'], /^error: invalid parameters for strategy 'sma-ok'.*\n.*param 'period': expected integer, got "abc"/],
      [['--strategy', sma, '--from', '2025-01-01'], /^error: no BTCPHP 1m bars in 2025-01-01T00:00Z \.\. the end/],
      [['--strategy', sma, '--from', '2024-01-01T02:00', '--startups', '500'], /^error: 120 bars of BTCPHP 1m come before 2024-01-01T02:00Z; the warm-up needs 49 and a startup of 500 needs 549: .*at most 71\)/],
      [['--strategy', sma, '--startups', '5000'], /^error: sma-ok's warm-up and a startup of 5000 need 5050 bars of BTCPHP 1m before the first decision, and there are 1400 bars in all/],
      [['--strategy', sma, '--startups', '100,x'], /^error: --startups '100,x': expected bar counts >= 0 separated by commas/],
      [['--strategy', sma, '--startups', '0'], /^error: --startups '0': give at least one count above 0/],
      [['--strategy', sma, '--tolerance', '2'], /^error: --tolerance: expected a relative difference in \[0, 1\)/],
      [['--strategy', sma, '--from', 'soon'], /^error: --from 'soon' is not a date/],
    ];
    for (const [args, message] of cases) {
      const r = await check(args);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.err).toMatch(message);
      expect(r.out).toBe('');
    }
  });
});

describe("halyard check: backtest's run options", () => {
  /** What the check wrote with --json: each run's count of intents (the first run is the warm-up's alone). */
  const intents = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { orders: { runs: { intents: number }[] } }).orders.runs.map((r) => r.intents);
  /** A backtest of the check's decision range (from 08:00) with the warm-up's 19 bars before it, as the check's first run has. */
  async function backtestFills(symbol: string, extra: string[]): Promise<{ side: string; quoteQty: string }[]> {
    const json = join(dir, `bt-${symbol}.json`);
    const argv = ['backtest', '--strategy', sized, '--symbol', symbol, '--interval', '1m', '--journal', journal, '--from', '2024-01-01T07:41', '--out-dir', join(dir, 'out'), '--json', json, ...extra];
    const r = await runCommand(backtestCommand, argv, { config: true });
    expect(r.err).toBe('');
    return (JSON.parse(readFileSync(json, 'utf8')) as { run: { fills: { side: string; quoteQty: string }[] } }).run.fills;
  }

  it('--balance sizes every run as the backtest with it does (one symbol and several)', async () => {
    const args = ['--strategy', sized, '--from', '2024-01-01T08:00', '--startups', '100'];
    const plain = await check([...args, '--json', join(dir, 'plain.json')]);
    expect([plain.code, plain.err]).toEqual([0, '']);
    // 10000 PHP by default: under its 20000, it never trades.
    expect(intents(join(dir, 'plain.json'))).toEqual([0, 0]);
    const options = ['--balance', 'PHP=50000', '--fee', '0.002', '--slippage-bps', '5', '--limit-fill', 'touch'];
    const rich = await check([...args, ...options, '--json', join(dir, 'rich.json')]);
    expect([rich.code, rich.err]).toEqual([0, '']);
    const [sent] = intents(join(dir, 'rich.json'));
    expect(sent).toBeGreaterThan(2);
    // The backtest of the same bars with the same options fills what the check's runs sent, the first BUY a fifth of 50000.
    const fills = await backtestFills('BTCPHP', options);
    expect(fills.length).toBe(sent);
    expect(Number(fills[0]?.quoteQty)).toBeCloseTo(10_000, -1);

    const several = await check([...args, '--balance', 'PHP=50000', '--json', join(dir, 'several.json')], 'BTCPHP,ETHPHP');
    expect([several.code, several.err]).toEqual([0, '']);
    expect(intents(join(dir, 'several.json'))[0]).toBe((await backtestFills('BTCPHP,ETHPHP', ['--balance', 'PHP=50000'])).length);
  });

  it('--exchange-info gives the rules of a symbol the journal and the config have none of', async () => {
    const args = ['--strategy', 'sma-crossover', '--startups', '100'];
    const none = await check(args, 'LINKPHP');
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/^error: no exchange rules for LINKPHP: .*--exchange-info RULES\.json/);
    const link = { symbol: 'LINKPHP', status: 'TRADING', baseAsset: 'LINK', baseAssetPrecision: 8, quoteAsset: 'PHP', quoteAssetPrecision: 2, filters: [{ filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '100000', tickSize: '0.01' }, { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '10000', stepSize: '0.001' }] };
    const rules = join(dir, 'link-rules.json');
    writeFileSync(rules, JSON.stringify({ symbols: [link] }));
    const ok = await check([...args, '--exchange-info', rules, '--balance', 'LINK=5'], 'LINKPHP');
    expect([ok.code, ok.err]).toEqual([0, '']);
    expect(ok.out).toMatch(/^Checked sma-crossover on LINKPHP 1m, /);
    const missing = await check([...args, '--exchange-info', join(dir, 'missing-rules.json')], 'LINKPHP');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^error: cannot read the exchange rules file .*missing-rules\.json: no such file/);
  });

  it('--detail plays the fills on the stored minutes while the strategy sees 5m bars made from them', async () => {
    const args = ['--strategy', 'sma-crossover', '--startups', '50'];
    const five = (extra: string[]) => check([...args, ...extra], 'BTCPHP', '5m');
    const [made, detailed] = [await five([]), await five(['--detail', '1m'])];
    expect([detailed.code, detailed.err]).toEqual([0, '']);
    expect(detailed.out.split('\n')[0]).toMatch(/^Checked sma-crossover on BTCPHP 5m, .* \(\d+ bars\)/);
    expect(detailed.out.split('\n')[0]).toBe(made.out.split('\n')[0]);
    expect((await five(['--detail', '15m'])).err).toMatch(/^error: --detail 15m: 15m bars do not tile 5m ones/);
    // No 3m bars stored: made from the minutes, which tile them.
    const three = await check([...args, '--detail', '3m'], 'BTCPHP', '15m');
    expect([three.code, three.err]).toEqual([0, '']);
    expect(three.out.split('\n')[0]).toMatch(/^Checked sma-crossover on BTCPHP 15m, /);
    expect((await check([...args, '--detail', '3m'], 'DOGEPHP', '15m')).err).toMatch(/^error: --detail 3m: no DOGEPHP 3m bars in .*, nor shorter ones that make them; it holds BTCPHP 1m/);
  });

  it("refuses a bad value with backtest's message and exit 2, before any run", async () => {
    const cases: [string[], string, string][] = [
      [['--fee', '1e-3'], 'BTCPHP', "error: --fee '1e-3' is not a rate such as 0.001 (a plain decimal in [0, 1))"],
      [['--fee', '-0.1'], 'BTCPHP,ETHPHP', "error: --fee '-0.1' is not a rate"],
      [['--balance', 'PHP'], 'BTCPHP', 'error: --balance "PHP": write it as ASSET=AMOUNT'],
      [['--balance', 'USD=5'], 'BTCPHP', 'error: --balance USD: BTCPHP trades BTC against PHP; give a balance of BTC or PHP'],
      [['--balance', 'USD=5'], 'BTCPHP,ETHPHP', 'error: --balance USD: BTCPHP, ETHPHP trade BTC, ETH against PHP; give a balance of one of BTC, ETH, PHP'],
      [['--slippage-bps', '20000'], 'BTCPHP', "error: --slippage-bps: expected a number in [0, 10000), got '20000'"],
      [['--volume-share', '0'], 'BTCPHP', "error: --volume-share: expected a number in (0, 1], got '0'"],
    ];
    for (const [extra, symbol, message] of cases) {
      const r = await check(['--strategy', sized, '--startups', '100', ...extra], symbol);
      expect({ extra, code: r.code }).toEqual({ extra, code: 2 });
      expect(r.err.startsWith(message), `${r.err} starts with ${message}`).toBe(true);
      expect(r.out).toBe('');
    }
  });
});

describe('check option parsers', () => {
  it('reads --startups and --tolerance', () => {
    expect(parseStartups(undefined)).toEqual([0, 100, 500, 1000]);
    expect(parseStartups(' 100, 500 ')).toEqual([100, 500]);
    expect([parseTolerance('1e-9'), parseTolerance('0.001'), parseTolerance(undefined)]).toEqual([1e-9, 0.001, undefined]);
    expect(() => parseTolerance('-1')).toThrow(/--tolerance/);
  });
});
