/**
 * `halyard backtest --sweep` writes the HTML sweep report beside its JSON (the JSON's name with
 * .html, or --report FILE) and prints its path; --walk-forward writes its per-fold report the same
 * way. In process (--workers 0) against a temp journal, as the CLI parses the arguments.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestCommand } from '../src/cli/commands/backtest.ts';
import { runCommand } from '../src/cli/test-support.ts';
import { generateSeries } from '../src/core/synthetic/index.ts';
import { openJournal } from '../src/journal/journal.ts';

let dir: string;
let journal: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-sweep-report-cli-'));
  journal = join(dir, 'j.db');
  const j = openJournal(journal);
  const series = generateSeries({ seed: 4, startTime: Date.UTC(2024, 0, 1), segments: [{ regime: 'slowUp', bars: 800 }, { regime: 'slowDown', bars: 800 }] });
  j.klines.insertKlines([...series].map((c) => ({ symbol: 'BTCPHP', interval: '1m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
  j.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (argv: string[]) => runCommand(backtestCommand, argv, { config: true });
const base = () => ['backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--interval', '1m', '--journal', journal, '--workers', '0'];

describe('halyard backtest --sweep: the HTML report', () => {
  it('writes the report beside the JSON under --out-dir, prints its path, and the page holds the grid', async () => {
    const out = join(dir, 'out');
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
    expect(html).toContain(`<dt>Data</dt><dd>${journal}</dd>`);
    expect(html).toContain('<dt>Range</dt><dd>2024-01-01 00:00 UTC → 2024-01-02 02:40 UTC (1d 2h, 1,600 bars)</dd>');
  });

  it('names the report after --json, and --report sets it', async () => {
    const json = join(dir, 'named', 'grid.json');
    const a = await run([...base(), '--sweep', 'fast=5,10', '--json', json, '--out-dir', join(dir, 'unused')]);
    expect(a.code).toBe(0);
    expect(a.out).toContain(`report  ${join(dir, 'named', 'grid.html')}`);
    expect(existsSync(join(dir, 'named', 'grid.html'))).toBe(true);

    const report = join(dir, 'elsewhere', 'landscape.html');
    const b = await run([...base(), '--sweep', 'fast=5,10', '--json', json, '--report', report]);
    expect(b.code).toBe(0);
    expect(b.out).toMatch(/\nreport {2}.*landscape\.html$/);
    expect(readFileSync(report, 'utf8')).toContain('<figure class="line-chart"');
  });

  it('--walk-forward writes its per-fold report', async () => {
    const json = join(dir, 'wf', 'wf.json');
    const r = await run([...base(), '--sweep', 'fast=5,10', 'slow=20', '--walk-forward', '--folds', '2', '--json', json]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const report = join(dir, 'wf', 'wf.html');
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
