/**
 * `halyard backtest --sweep` writes the HTML sweep report beside its JSON (the JSON's name with
 * .html, or --report FILE) and prints its path; --walk-forward writes its per-fold report the same
 * way. In process (--workers 0) against a temp journal, as the CLI parses the arguments.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepJournal } from './support/sweep-journal.ts';

const fixture = sweepJournal('report', 800);
const { run, base } = fixture;

describe('halyard backtest --sweep: the HTML report', () => {
  it('writes the report beside the JSON under --out-dir, prints its path, and the page holds the grid', async () => {
    const out = join(fixture.dir, 'out');
    const r = await run([...base(), '--out-dir', out, '--sweep', 'fast=5,10,15', 'slow=10:30:10']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const json = join(out, 'sma-crossover-BTCPHP-1m-sweep.json');
    const report = join(out, 'sma-crossover-BTCPHP-1m-sweep.html');
    expect(r.out).toContain(`json    ${json}\nreport  ${report}`);
    const html = readFileSync(report, 'utf8');
    const saved = JSON.parse(readFileSync(json, 'utf8')) as { results: Record<string, unknown>[]; skipped: unknown[] };
    // A plain sweep's JSON and page are as before: no curve in a result, no out-of-sample section.
    expect(Object.keys(saved)).not.toContain('outOfSample');
    expect(saved.results.every((x) => !('equity' in x))).toBe(true);
    expect(html).not.toContain('id="out-of-sample"');
    expect(html.match(/<td class="cell ran/g)).toHaveLength(saved.results.length);
    // slow > fast: (10,10), (15,10) skipped.
    expect(saved.skipped).toHaveLength(2);
    expect(html.match(/<td class="cell skipped"/g)).toHaveLength(2);
    expect(html).toContain('<th class="corner">fast ↓ slow →</th>');
    expect(html).toContain('<dt>Base params</dt><dd><code>symbol=BTCPHP interval=1m quoteAmount=1000</code></dd>');
    expect(html).toContain(`<dt>Data</dt><dd>${fixture.journal}</dd>`);
    expect(html).toContain('<dt>Range</dt><dd>2024-01-01 00:00 UTC → 2024-01-02 02:40 UTC (1d 2h, 1,600 bars)</dd>');
  });

  it('names the report after --json, and --report sets it', async () => {
    const json = join(fixture.dir, 'named', 'grid.json');
    const a = await run([...base(), '--sweep', 'fast=5,10', '--json', json, '--out-dir', join(fixture.dir, 'unused')]);
    expect(a.code).toBe(0);
    expect(a.out).toContain(`report  ${join(fixture.dir, 'named', 'grid.html')}`);
    expect(existsSync(join(fixture.dir, 'named', 'grid.html'))).toBe(true);

    const report = join(fixture.dir, 'elsewhere', 'landscape.html');
    const b = await run([...base(), '--sweep', 'fast=5,10', '--json', json, '--report', report]);
    expect(b.code).toBe(0);
    expect(b.out).toMatch(/\nreport {2}.*landscape\.html$/);
    expect(readFileSync(report, 'utf8')).toContain('<figure class="line-chart"');
  });

  it('--walk-forward writes its per-fold report, with the combined out-of-sample curve in the JSON, the output and the page', async () => {
    const json = join(fixture.dir, 'wf', 'wf.json');
    const r = await run([...base(), '--sweep', 'fast=5,10', 'slow=20', '--walk-forward', '--folds', '2', '--json', json]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const report = join(fixture.dir, 'wf', 'wf.html');
    expect(r.out).toContain(`json    ${json}\nreport  ${report}`);
    const html = readFileSync(report, 'utf8');
    expect(html.match(/<table class="sortable" id="folds-table">.*?<\/table>/s)![0].match(/<tr/g)).toHaveLength(3);
    const saved = JSON.parse(readFileSync(json, 'utf8')) as {
      folds: { testResult: { from: number; to: number; bars: number } | null }[];
      aggregate: { compoundedReturnPct: number; worstDrawdownPct: number };
      outOfSample: { equity: [number, number][]; returnPct: number; maxDrawdownPct: number };
    };
    const o = saved.outOfSample;
    const [t1, t2] = saved.folds.map((f) => f.testResult!);
    // Each test window's start and a point a bar, the second fold starting where the first ended.
    expect(o.equity).toHaveLength(t1!.bars + t2!.bars + 2);
    expect(o.equity[0]![0]).toBe(t1!.from);
    expect(o.equity[t1!.bars + 1]).toEqual([t2!.from, o.equity[t1!.bars]![1]]);
    expect(o.returnPct).toBeCloseTo(saved.aggregate.compoundedReturnPct, 9);
    expect(o.maxDrawdownPct).toBeGreaterThanOrEqual(saved.aggregate.worstDrawdownPct - 1e-9);
    expect(r.out).toMatch(/^ {2}combined out-of-sample curve \(the test windows chained end to end\): return [+-]\d+\.\d+%, max drawdown \d+\.\d+%$/m);
    expect(html).toContain(`<figure class="line-chart oos" id="oos-chart" data-points="${o.equity.length}" data-folds="2">`);
    expect(html.match(/<g class="fold-start">/g)).toHaveLength(4);
    expect(html).not.toContain('id="no-equity"');
    expect(html.match(/<script[^>]+src=|<link[^>]+href=/gi)).toBeNull();
  });

  it('still refuses --csv for a sweep', async () => {
    const r = await run([...base(), '--sweep', 'fast=5,10', '--csv']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--csv is written for a single run, not a sweep (a sweep writes its JSON and its HTML report)');
  });
});
