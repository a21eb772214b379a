/** `halyard backtest --strategy A --strategy B` (src/cli/commands/backtest/backtest-compare.ts) against a temp journal. */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { comparisonBase } from '../src/cli/commands/backtest/backtest-compare.ts';
import { sweepJournal } from './support/sweep-journal.ts';

// The sweep tests' journal: BTCPHP 1-minute bars, 1,500 of a slow rise then 1,500 of a slow fall.
const j = sweepJournal('compare', 1500);
const run = j.run;
const base = (out: string) => ['backtest', '--symbol', 'BTCPHP', '--interval', '1m', '--journal', j.journal, '--out-dir', join(j.dir, out)];

/** The comparison table's rows (after its header row), as [rank, strategy, ...figures]. */
function tableRows(out: string): string[][] {
  const lines = out.split('\n');
  const head = lines.findIndex((l) => /^\s*#\s+Strategy\s/.test(l));
  const rows: string[][] = [];
  for (let i = head + 1; i < lines.length && /^\s*\d+\s/.test(lines[i] as string); i++) rows.push((lines[i] as string).trim().split(/\s+/));
  return rows;
}

describe('halyard backtest with several strategies', () => {
  it('runs each as it runs alone and ranks them in one table', async () => {
    const r = await run([...base('two'), '--strategy', 'sma-crossover', '--strategy', 'rsi-exits', '--param', 'fast=5', '--rank-by', 'returnPct']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('== 1 of 2: sma-crossover ==');
    expect(r.out).toContain('== 2 of 2: rsi-exits ==');
    expect(r.out).toContain('Comparison of 2 strategies on BTCPHP 1m, 2024-01-01 00:00 UTC -> 2024-01-03 02:00 UTC, ranked by returnPct');
    expect(r.out).toContain('* ranked by this column (--rank-by returnPct)');
    // fast is the SMA crossover's only: rsi-exits ran on its defaults.
    expect(r.out).toContain('sma-crossover ran with --param fast=5');
    const rows = tableRows(r.out);
    expect(rows.map((x) => x[1]).sort()).toEqual(['rsi-exits', 'sma-crossover']);
    // Each row's figures are its run's own: the JSON each run wrote agrees with the table (the last json line is the comparison's).
    const jsons = [...r.out.matchAll(/^json {4}(.+)$/gm)].map((m) => m[1] as string).slice(0, -1);
    expect(jsons).toHaveLength(2);
    const returns = new Map(
      jsons.map((f) => {
        const saved = JSON.parse(readFileSync(f, 'utf8')) as { run: { strategy: string; params: Record<string, unknown> }; metrics: { returnPct: number } };
        if (saved.run.strategy === 'sma-crossover') expect(saved.run.params['fast']).toBe(5);
        return [saved.run.strategy, saved.metrics.returnPct] as const;
      }),
    );
    const ranked = rows.map((x) => returns.get(x[1] as string) as number);
    expect(ranked[0]).toBeGreaterThanOrEqual(ranked[1] as number);
    expect(rows[0]?.[2]).toBe(`${(ranked[0] as number) >= 0 ? '+' : ''}${(ranked[0] as number).toFixed(2)}%`);
  });

  it('writes the comparison as JSON and an HTML report under --out-dir, listed after the table, ranked as the table is', async () => {
    const r = await run([...base('files'), '--strategy', 'sma-crossover,rsi-exits,dca', '--param', 'fast=5', '--rank-by', 'maxDrawdownPct']);
    expect(r.code).toBe(0);
    const name = 'compare-sma-crossover_rsi-exits_dca-BTCPHP-1m-2024-01-01-2024-01-03';
    const jsonFile = join(j.dir, 'files', `${name}.json`);
    const reportFile = join(j.dir, 'files', `${name}.html`);
    // Listed last, after the table's note.
    const tail = r.out.slice(r.out.indexOf('* ranked by this column'));
    expect(tail.trimEnd().endsWith(`\n\njson    ${jsonFile}\nreport  ${reportFile}`)).toBe(true);
    const runs = [...r.out.matchAll(/^json {4}(.+)$/gm)].map((m) => m[1] as string);
    const reports = [...r.out.matchAll(/^report {2}(.+)$/gm)].map((m) => m[1] as string);
    expect(runs).toHaveLength(4);
    expect(runs[3]).toBe(jsonFile);
    expect(reports[3]).toBe(reportFile);

    type Saved = { run: { strategy: string }; metrics: Record<string, unknown> };
    const saved = new Map(runs.slice(0, 3).map((f) => [(JSON.parse(readFileSync(f, 'utf8')) as Saved).run.strategy, { file: f, metrics: (JSON.parse(readFileSync(f, 'utf8')) as Saved).metrics }]));
    const doc = JSON.parse(readFileSync(jsonFile, 'utf8')) as {
      rankBy: string;
      market: { symbols: string[]; interval: string; quoteAsset: string };
      range: { from: number; to: number; bars: number };
      strategies: { rank: number; name: string; params: Record<string, unknown>; paramArgs: string[]; metrics: Record<string, unknown>; files: { json: string; report: string } }[];
    };
    expect(doc.rankBy).toBe('maxDrawdownPct');
    expect(doc.market).toEqual({ symbols: ['BTCPHP'], interval: '1m', quoteAsset: 'PHP' });
    expect(doc.range).toEqual({ from: Date.UTC(2024, 0, 1), to: Date.UTC(2024, 0, 3, 2), bars: 3000 });
    // The table's order, rank by rank; each strategy's metrics and files its run's.
    expect(doc.strategies.map((s) => [String(s.rank), s.name])).toEqual(tableRows(r.out).map((x) => [x[0], x[1]]));
    for (const s of doc.strategies) {
      expect(s.metrics).toEqual(saved.get(s.name)?.metrics);
      expect(s.files.json).toBe(saved.get(s.name)?.file);
      expect(s.files.report).toBe(reports[runs.indexOf(s.files.json)]);
    }
    const sma = doc.strategies.find((s) => s.name === 'sma-crossover');
    expect(sma?.params).toMatchObject({ symbol: 'BTCPHP', interval: '1m', fast: 5 });
    expect(sma?.paramArgs).toEqual(['fast=5']);
    expect(doc.strategies.find((s) => s.name === 'dca')?.paramArgs).toEqual([]);

    // The report: the same order, links to each run's files beside it, and a curve a strategy.
    const html = readFileSync(reportFile, 'utf8');
    expect([...html.matchAll(/<tr data-strategy="([^"]+)"/g)].map((m) => m[1])).toEqual(doc.strategies.map((s) => s.name));
    for (const s of doc.strategies) expect(html).toContain(`<a href="${basename(s.files.report)}">report</a>`);
    const data = JSON.parse(/id="compare-data">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null') as { series: { name: string; equity: unknown[] }[] };
    expect(data.series.map((s) => s.name)).toEqual(['sma-crossover', 'rsi-exits', 'dca']);
    // 3,000 bars thinned to at most 2,000 points each.
    expect(data.series.every((s) => s.equity.length > 1_000 && s.equity.length <= 2_000)).toBe(true);
  });

  it('--json and --report name the comparison\'s files; each run still writes its own under --out-dir', async () => {
    const jsonFile = join(j.dir, 'named', 'cmp.json');
    const reportFile = join(j.dir, 'named', 'html', 'cmp.html');
    const r = await run([...base('named-runs'), '--strategy', 'sma-crossover,dca', '--json', jsonFile, '--report', reportFile]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out.trimEnd().endsWith(`json    ${jsonFile}\nreport  ${reportFile}`)).toBe(true);
    const runs = [...r.out.matchAll(/^json {4}(.+)$/gm)].map((m) => m[1] as string);
    expect(runs.slice(0, 2).every((f) => f.startsWith(join(j.dir, 'named-runs')))).toBe(true);
    expect((JSON.parse(readFileSync(jsonFile, 'utf8')) as { strategies: unknown[] }).strategies).toHaveLength(2);
    expect(readFileSync(reportFile, 'utf8')).toContain('id="compare-data"');
  });

  it('repeats a run\'s warnings under the table, and refuses a --json that names a run\'s own file', async () => {
    const r = await run([...base('warned'), '--strategy', 'sma-crossover,dca', '--param', 'slow=5000']);
    expect(r.code).toBe(0);
    const tail = r.out.slice(r.out.indexOf('* ranked by this column'));
    expect(tail).toContain("\nsma-crossover: the strategy's warmup is 5001 bars and the run had 3000: onBar never ran");
    // The comparison's JSON and report say it too.
    const files = [...r.out.matchAll(/^(?:json {4}|report {2})(.+)$/gm)].map((m) => m[1] as string).slice(-2);
    const doc = JSON.parse(readFileSync(files[0] as string, 'utf8')) as { strategies: { name: string; notices?: string[] }[] };
    expect(doc.strategies.find((x) => x.name === 'sma-crossover')?.notices?.[0]).toContain('onBar never ran');
    expect(doc.strategies.find((x) => x.name === 'dca')?.notices).toBeUndefined();
    expect(readFileSync(files[1] as string, 'utf8')).toContain('<p class="note warning">sma-crossover: the strategy&#39;s warmup is 5001 bars');
    const runJson = join(j.dir, 'clash', 'dca-BTCPHP-1m-2024-01-01-2024-01-03.json');
    const clash = await run([...base('clash'), '--strategy', 'sma-crossover,dca', '--json', runJson]);
    expect(clash.code).toBe(2);
    expect(clash.err).toContain(`--json ${runJson} is a file the run of dca wrote: name another for the comparison`);
    // The run's own JSON is left as the run wrote it.
    expect((JSON.parse(readFileSync(runJson, 'utf8')) as { run: { strategy: string } }).run.strategy).toBe('dca');
  });

  it('names the comparison\'s files safely, and shortens a long list of strategies', () => {
    const from = Date.UTC(2024, 0, 1);
    const to = Date.UTC(2024, 0, 3, 2);
    expect(comparisonBase(['sma-crossover', 'my strat/v2'], ['BTCPHP', 'ETHPHP'], '1h', from, to)).toBe('compare-sma-crossover_my-strat-v2-BTCPHP+ETHPHP-1h-2024-01-01-2024-01-03');
    const many = Array.from({ length: 12 }, (_, i) => `strategy-number-${i + 1}`);
    const long = comparisonBase(many, ['BTCPHP'], '1m', from, to);
    expect(long).toMatch(/^compare-strategy-number-1_and_11_more-[0-9a-f]{8}-BTCPHP-1m-2024-01-01-2024-01-03$/);
    // Another list of as many, with the same first, is another name.
    expect(comparisonBase([...many.slice(0, 11), 'other'], ['BTCPHP'], '1m', from, to)).not.toBe(long);
    expect(comparisonBase(many, ['BTCPHP'], '1m', from, to)).toBe(long);
  });

  it('a comma-separated list is the same as repeating --strategy, and the single runs match a run alone', async () => {
    const both = await run([...base('comma'), '--strategy', 'sma-crossover,dca']);
    expect(both.code).toBe(0);
    const alone = await run([...base('alone'), '--strategy', 'dca']);
    expect(alone.code).toBe(0);
    const summary = (out: string) => out.slice(out.indexOf('Start equity'), out.indexOf('\n\n', out.indexOf('Start equity')));
    const dcaPart = both.out.slice(both.out.indexOf('== 2 of 2: dca =='));
    expect(summary(dcaPart)).toBe(summary(alone.out));
    expect(tableRows(both.out)).toHaveLength(2);
  });

  it('ranks a strategy stopped by a failure last, with why, in the table, the JSON and the report', async () => {
    // Stopped on its 50th bar having traded nothing: its idle run's Sharpe of 0 beats any loser's.
    const strategy = join(j.dir, 'stops.mts');
    const index = fileURLToPath(new URL('../src/strategy/index.ts', import.meta.url));
    writeFileSync(
      strategy,
      `import { defineStrategy, z } from ${JSON.stringify(index)};
export default defineStrategy({ name: 'stops', params: z.object({ symbol: z.string().default('BTCPHP'), interval: z.string().default('1m') }), symbols: (p) => [p.symbol], intervals: (p) => [p.interval],
  state: () => ({ n: 0 }), onBar(ctx) { if (++ctx.state.n === 50) throw new Error('boom'); } });
`,
    );
    const r = await run([...base('stopped'), '--strategy', `${strategy},dca`]);
    expect(r.code).toBe(0);
    const rows = tableRows(r.out);
    expect(rows.map((x) => x[1])).toEqual(['dca', 'stops']);
    expect(rows[0]?.[2]).toMatch(/^-/);
    expect(rows[1]?.[2]).toBe('0.00');
    expect(r.out).toMatch(/\nstops was stopped by a failure, ranked last \(its figures are of a stopped run\): onBar at 2024-01-01 00:50 UTC: boom\n/);
    const doc = JSON.parse(readFileSync(join(j.dir, 'stopped', 'compare-stops_dca-BTCPHP-1m-2024-01-01-2024-01-03.json'), 'utf8')) as { strategies: { rank: number; name: string; firstFailure?: string }[] };
    expect(doc.strategies.map((s) => [s.rank, s.name, s.firstFailure])).toEqual([
      [1, 'dca', undefined],
      [2, 'stops', 'onBar at 2024-01-01 00:50 UTC: boom'],
    ]);
    const html = readFileSync(join(j.dir, 'stopped', 'compare-stops_dca-BTCPHP-1m-2024-01-01-2024-01-03.html'), 'utf8');
    expect([...html.matchAll(/<tr data-strategy="([^"]+)"/g)].map((m) => m[1])).toEqual(['dca', 'stops']);
    expect(html).toContain('stops was stopped by a failure, ranked last');
  });

  it('refuses what cannot apply to several runs, and checks every strategy before running any', async () => {
    const cases: [string[], string][] = [
      [['--strategy', 'sma-crossover', '--strategy', 'sma-crossover'], '--strategy sma-crossover is given twice'],
      [['--strategy', 'sma-crossover,dca', '--json', j.dir], `--json`],
      [['--strategy', 'sma-crossover,dca', '--sweep', 'fast=5,10'], '--sweep and --walk-forward optimise one strategy'],
      [['--strategy', 'sma-crossover,dca', '--param', 'nope=1'], "--param nope=1: none of the strategies has a parameter 'nope' (sma-crossover: symbol, interval, fast, slow"],
      [['--strategy', 'sma-crossover,dca', '--param', 'fast=1'], 'fast'],
      [['--strategy', 'sma-crossover,no-such-strategy'], 'no-such-strategy'],
      [['--strategy', 'sma-crossover,dca', '--rank-by', 'nope'], 'nope'],
      // A strategy that does not trade the run's symbol with its parameters: refused before the first ran.
      [['--strategy', 'sma-crossover,dca', '--param', 'symbol=ETHPHP'], "strategy 'sma-crossover' trades ETHPHP on 1m with these parameters, not BTCPHP 1m"],
    ];
    for (const [args, message] of cases) {
      const r = await run([...base('refused'), ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toContain(message);
      // Nothing ran: no summary was printed.
      expect(r.out).not.toContain('Start equity');
    }
  });
});
