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
    const saved = JSON.parse(readFileSync(json, 'utf8')) as { results: unknown[]; skipped: unknown[] };
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

  it('--walk-forward writes its per-fold report', async () => {
    const json = join(fixture.dir, 'wf', 'wf.json');
    const r = await run([...base(), '--sweep', 'fast=5,10', 'slow=20', '--walk-forward', '--folds', '2', '--json', json]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const report = join(fixture.dir, 'wf', 'wf.html');
    expect(r.out).toContain(`json    ${json}\nreport  ${report}`);
    const html = readFileSync(report, 'utf8');
    expect(html.match(/<table class="sortable" id="folds-table">.*?<\/table>/s)![0].match(/<tr/g)).toHaveLength(3);
    expect(html).toContain('id="no-equity"');
  });

  it('still refuses --csv for a sweep', async () => {
    const r = await run([...base(), '--sweep', 'fast=5,10', '--csv']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--csv is written for a single run, not a sweep (a sweep writes its JSON and its HTML report)');
  });
});
