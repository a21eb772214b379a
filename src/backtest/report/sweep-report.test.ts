import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WalkForwardResult } from '../walk-forward/walk-forward.ts';
import { demoContext, demoMetrics, demoSweep } from './sweep-demo.ts';
import { renderSweepReport, reportFileFor, writeSweepReport } from './sweep-report.ts';
import { renderWalkForwardReport } from './walk-forward-report.ts';

const fast = { name: 'fast', values: [5, 10, 15, 20] };
const slow = { name: 'slow', values: [20, 30, 40] };
const hill = (v: Record<string, unknown>): number => 3 - Math.abs((v['fast'] as number) - 10) / 10 - Math.abs((v['slow'] as number) - 30) / 20;
const skipCross = (v: Record<string, unknown>): string | undefined => ((v['slow'] as number) <= (v['fast'] as number) ? 'slow must be greater than fast' : undefined);

/** The data the page script reads. */
const pageData = (html: string): { heatmaps: Record<string, { texts: string[]; colours: string[] }>[]; legend: Record<string, unknown> } => JSON.parse(html.match(/<script type="application\/json" id="sweep-data">(.*?)<\/script>/s)![1]!) as never;

describe('renderSweepReport', () => {
  it('a random search: the cells not drawn read "not run", the page says it is a random sample, undrawn neighbours are not counted', () => {
    const full = demoSweep({ axes: [fast, slow], landscape: hill });
    const undrawn = new Set(['5,20', '20,40', '15,30']);
    const entries = full.entries.filter((x) => !undrawn.has(`${String(x.values['fast'])},${String(x.values['slow'])}`)).map((x, i) => ({ ...x, rank: i + 1 }));
    const result = { ...full, entries, search: { kind: 'random' as const, trials: 9, seed: 4, gridSize: 12 } };
    const html = renderSweepReport({ result, context: demoContext });
    expect(html.match(/<td class="cell ran/g)).toHaveLength(9);
    expect(html.match(/<td class="cell absent" title="[^"]*">not run<\/td>/g)).toHaveLength(3);
    expect(html).toContain('<td class="cell absent" title="fast=15 slow=30: not run (not drawn by the random search)">not run</td>');
    expect(html).toContain('<p id="random-sample" class="note">A random sample: 9 of the grid\'s 12 points, drawn with seed 4 (--search random).');
    expect(html).toContain('<dt>Search</dt><dd>random: 9 of 12 grid points (seed 4)</dd>');
    expect(html).toContain('or not run (not drawn by the random search)');
    // fast=10 slow=30 is best; of its 8 neighbours 5,20 and 15,30 were not drawn: 6 counted, none "uncounted".
    expect(html).toMatch(/over its 6 grid neighbour\(s\) and/);
    expect(html).not.toContain('more skipped, failed or stopped');
    // A full grid says nothing of a sample.
    const plain = renderSweepReport({ result: full, context: demoContext });
    expect(plain).not.toContain('random');
    expect(plain).not.toContain('not run');
  });

  it('a TPE search: the cells not proposed read "not run", the page says how it searched, shows its history and each point\'s trial and round', () => {
    const full = demoSweep({ axes: [fast, slow], landscape: hill });
    const untried = new Set(['5,20', '20,40', '15,30', '20,20']);
    const kept = full.entries.filter((x) => !untried.has(`${String(x.values['fast'])},${String(x.values['slow'])}`));
    // Tried in reverse rank order: the best came last, at trial 8 of round 5.
    const entries = kept.map((x, i) => ({ ...x, rank: i + 1, trial: kept.length - i, round: Math.max(1, kept.length - i - 3) }));
    const result = { ...full, entries, search: { kind: 'tpe' as const, trials: 8, seed: 2, gridSize: 12, startup: 4, batch: 1, rounds: 5 } };
    const html = renderSweepReport({ result, context: demoContext });
    expect(html.match(/<td class="cell absent" title="[^"]*">not run<\/td>/g)).toHaveLength(4);
    expect(html).toContain('<td class="cell absent" title="fast=15 slow=30: not run (not proposed by the TPE search)">not run</td>');
    expect(html).toContain('<dt>Search</dt><dd>TPE: 8 of 12 grid points (seed 2): 4 at random, then 4 proposed 1 a round from the results so far, 5 rounds</dd>');
    expect(html).toContain('<p id="tpe-search" class="note">A TPE search: 8 of the grid\'s 12 points (--search tpe, seed 2). Round 1 ran 4 of them at random');
    expect(html).toContain('The best was found at trial 8 (round 5).');
    expect(html).toContain('<p id="best">Best: <code>fast=10 slow=30</code> (trial 8, round 5):');
    expect(html).toContain('title="#1 fast=10 slow=30 (trial 8, round 5): ');
    expect(html).toContain('or not run (not proposed by the TPE search)');
    // The history: a dot per trial, the best so far, the startup round shaded; found at the last trial, so more trials may pay.
    const history = html.match(/<section id="search-history">.*?<\/section>/s)![0];
    expect(history.match(/<circle class="pt/g)).toHaveLength(8);
    expect(history).toContain('<rect class="startup"');
    expect(history).toContain('The best was found at trial 8 of 8: late in the search, so more --trials may find better.');
    // The ranked table has the order columns, sortable as the others.
    expect(html).toContain('<th title="sort">#</th><th title="sort">Trial</th><th title="sort">Round</th><th title="sort">fast</th>');
    expect(html).toContain('<tr class="best"><td data-v="1">1</td><td data-v="8">8</td><td data-v="5">5</td>');
    // A random search and a full grid have neither history nor order columns.
    const random = renderSweepReport({ result: { ...full, search: { kind: 'random' as const, trials: 12, seed: 1, gridSize: 12 } }, context: demoContext });
    expect(random).not.toContain('search-history');
    expect(random).not.toContain('>Trial<');
  });

  it('is one self-contained page: data and script inline, no external references', () => {
    const html = renderSweepReport({ result: demoSweep({ axes: [fast, slow], landscape: hill }), context: demoContext });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.match(/<script[^>]+src=|<link[^>]+href=/gi)).toBeNull();
    expect(html.match(/https?:\/\//g)).toBeNull();
    expect(html).toContain('<body data-ready="false">');
  });

  it('2 axes: a heatmap with labelled axes, a value in each cell, the best marked, skipped and failed shown as such', () => {
    const result = demoSweep({ axes: [fast, slow], landscape: hill, skip: skipCross, fail: (v) => (v['fast'] === 15 && v['slow'] === 40 ? 'boom <here>' : undefined) });
    const html = renderSweepReport({ result, context: demoContext });
    expect(html).toContain('<th class="corner">fast ↓ slow →</th><th scope="col">20</th><th scope="col">30</th><th scope="col">40</th>');
    expect(html.match(/<th scope="row">/g)).toHaveLength(4);
    expect(html.match(/<td class="cell ran/g)).toHaveLength(10);
    expect(html).toMatch(/<td class="cell ran best" data-cell="4" data-rank="1" style="background:hsl\(120, 70%, 73%\)" title="#1 fast=10 slow=30: Sharpe 3\.00, Return \+6\.00%[^"]*">3\.00<\/td>/);
    expect(html).toContain('<td class="cell skipped" title="fast=20 slow=20: skipped by the params schema: slow must be greater than fast">skipped</td>');
    expect(html).toContain('<td class="cell failed" title="fast=15 slow=40: failed: boom &#60;here&#62;">failed</td>');
    // One entry per ran cell for every metric, in data-cell order; the rank metric first in the selector.
    const data = pageData(html);
    expect(data.heatmaps).toHaveLength(1);
    expect(Object.keys(data.heatmaps[0]!)).toEqual(['sharpe', 'returnPct', 'maxDrawdownPct', 'sortino', 'profitFactor', 'winRatePct', 'trades']);
    expect(data.heatmaps[0]!['returnPct']!.texts[4]).toBe('+6.00%');
    expect(data.heatmaps[0]!['trades']!.texts).toHaveLength(10);
    expect(html).toMatch(/<select id="metric"><option value="sharpe" selected>Sharpe \(ranked by\)<\/option><option value="returnPct">Return<\/option>/);
    // The context, the robustness line, the ranked table and the problems under it.
    expect(html).toContain('<dt>Base params</dt><dd><code>symbol=BTCUSDT interval=1m quoteAmount=1000</code></dd>');
    expect(html).toContain('<dt>Fill model</dt><dd>MARKET at the next open, no slippage, LIMIT when traded through, no volume cap</dd>');
    expect(html).toContain('<dt>Range</dt><dd>2024-01-01 00:00 UTC → 2024-01-03 02:00 UTC (2d 2h, 3,000 bars)</dd>');
    expect(html).toMatch(/<p class="robust \w+" id="robustness" data-verdict="\w+"><strong>Robustness: /);
    expect(html).not.toContain('id="edge"'); // the best is inside the grid
    expect(html).toContain('Run it alone for its own report: <code>--param fast=10 --param slow=30</code>');
    expect(html.match(/<table class="sortable" id="ranked-table">.*?<\/table>/s)![0].match(/<tr/g)).toHaveLength(11);
    expect(html).toContain('<h3 id="skipped">1 combination(s) skipped, rejected by the params schema</h3>');
    expect(html).toContain('<li><code>fast=15 slow=40</code>: boom &#60;here&#62;</li>');
  });

  it('says when the best sits on the edge of a numeric axis', () => {
    const html = renderSweepReport({ result: demoSweep({ axes: [fast, slow], landscape: (v) => Number(v['fast']) }), context: demoContext });
    expect(html).toMatch(/<p id="edge" class="note">the best sits at the edge of the grid on fast=\d+ \(its largest\)[^<]*widen it that way before trusting the choice\.<\/p>/);
  });

  it('1 axis: an SVG line chart per metric, the best ringed, a failed point crossed', () => {
    const result = demoSweep({ axes: [fast, { name: 'slow', values: [40] }], landscape: hill, fail: (v) => (v['fast'] === 20 ? 'boom' : undefined) });
    const html = renderSweepReport({ result, context: demoContext });
    expect(html.match(/<figure class="line-chart" data-metric="\w+"><svg /g)).toHaveLength(7);
    expect(html).not.toContain('class="heat"');
    expect(html.match(/<circle class="pt best"/g)).toHaveLength(7);
    expect(html.match(/<path class="off failed"/g)).toHaveLength(7);
    expect(html).toContain('The other parameters at slow=40.');
  });

  it('3+ axes: a heatmap per pair, the others held at the best\'s values and said so', () => {
    const mode = { name: 'mode', values: ['a', 'b'] };
    const result = demoSweep({ axes: [fast, slow, mode], landscape: (v) => hill(v) + (v['mode'] === 'b' ? 1 : 0) });
    const html = renderSweepReport({ result, context: demoContext });
    expect(html.match(/<figure class="heatmap" data-heatmap="\d"/g)).toHaveLength(3);
    expect(html).toContain("one heatmap per pair, the other parameters held at the best combination's values (fast=10 slow=30 mode=b)");
    expect(html).toContain('<figcaption>fast × slow <span class="muted">(mode=b)</span></figcaption>');
    // Every heatmap marks the best (it lies on every slice through it).
    expect(html.match(/class="cell ran best"/g)).toHaveLength(3);
  });

  it('escapes what it shows: a strategy name, a parameter value or an error cannot break out of the page', () => {
    const result = demoSweep({ axes: [{ name: 'mode', values: ['</script><img src=x>', 'b'] }, slow], landscape: () => 1, strategy: '<b>evil</b>', fail: (v) => (v['mode'] === 'b' ? '</script><script>alert(1)</script>' : undefined) });
    const html = renderSweepReport({ result, context: { ...demoContext, baseParams: { note: '</script>' } } });
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<b>evil</b>');
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).toContain('&#60;/script&#62;&#60;img src=x&#62;');
  });

  it('says so when nothing ran', () => {
    const html = renderSweepReport({ result: demoSweep({ axes: [fast], landscape: hill, fail: () => 'boom' }), context: demoContext });
    expect(html).toContain('No combination ran: there is no landscape to draw.');
    expect(html).not.toContain('id="robustness"');
  });

  it('names the report after the JSON and writes it, making the folder', async () => {
    expect(reportFileFor('out/sweep.json')).toBe('out/sweep.html');
    expect(reportFileFor('out/sweep.JSON')).toBe('out/sweep.html');
    expect(reportFileFor('out/sweep')).toBe('out/sweep.html');
    const dir = mkdtempSync(path.join(tmpdir(), 'halyard-sweep-html-'));
    try {
      const file = path.join(dir, 'a', 'b', 'sweep.html');
      await writeSweepReport(file, { result: demoSweep({ axes: [fast, slow], landscape: hill }), context: demoContext });
      expect(readFileSync(file, 'utf8')).toContain('id="sweep-data"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('renderWalkForwardReport', () => {
  it('shows each fold\'s train window, chosen params and out-of-sample figures, and the combined out-of-sample curve with its folds marked', () => {
    const test = (sharpe: number, from: number) => ({ metrics: demoMetrics({ sharpe, returnPct: sharpe, trades: 3, winRatePct: 66.7, profitFactor: 2, netPnl: sharpe * 100 }), from, to: from + 400 * 60_000, barCount: 400 });
    const t1 = Date.UTC(2024, 0, 1, 10);
    const result: WalkForwardResult = {
      strategy: 'sma-crossover',
      symbol: 'BTCUSDT',
      interval: '1m',
      rankBy: 'sharpe',
      totalBars: 1400,
      trainBars: 600,
      testBars: 400,
      stepBars: 400,
      unusedBars: 0,
      anchored: false,
      parameterSets: 4,
      folds: [
        { index: 1, train: { skip: 0, take: 600 }, test: { skip: 600, take: 400 }, chosen: { values: { fast: 10 }, params: {}, trainMetrics: demoMetrics({ sharpe: 4.7 }) }, testResult: test(1.5, t1), trainRuns: 4, trainFailures: 0, trainSkipped: 0 },
        { index: 2, train: { skip: 400, take: 600 }, test: { skip: 1000, take: 400 }, chosen: { values: { fast: 20 }, params: {}, trainMetrics: demoMetrics({ sharpe: 3 }) }, trainRuns: 4, trainFailures: 1, trainSkipped: 0, error: 'test run failed: <boom>' },
      ],
      aggregate: { folds: 2, evaluated: 1, compoundedReturnPct: 1.5, netPnl: 150, meanSharpe: 1.5, meanSortino: 0, worstDrawdownPct: 0, trades: 3, fills: 6, winRatePct: 66.7, profitableFolds: 1, meanTrainScore: 4.7, meanTestScore: 1.5 },
      outOfSample: { equity: [[t1, 10_000], [t1 + 100 * 60_000, 9_000], [t1 + 400 * 60_000, 10_150]], returnPct: 1.5, maxDrawdownPct: 10 },
      skipped: [],
      workers: 0,
    };
    const html = renderWalkForwardReport({ result, context: demoContext });
    expect(html).toContain('<table class="sortable" id="folds-table">');
    expect(html).toMatch(/<tr><td data-v="1">1<\/td><td data-v="0">bars 1–600 \(600\)<\/td><td data-v="\d+">2024-01-01 10:00 UTC<\/td><td data-v="\d+">2024-01-01 16:40 UTC<\/td><td data-v="fast=10">fast=10<\/td><td data-v="4.7">4.70<\/td><td data-v="1.5">1.50<\/td><td data-v="1.5">\+1.50%<\/td>/);
    expect(html).toContain('<td data-v="test run failed: &#60;boom&#62;; 1 train run(s) failed">test run failed: &#60;boom&#62;; 1 train run(s) failed</td>');
    expect(html).toContain('<figure class="line-chart oos" id="oos-chart" data-points="3" data-folds="1">');
    expect(html).toContain('combined out-of-sample curve (the test windows chained end to end): return +1.50%, max drawdown 10.00%');
    // The equity and its drawdown, each with fold 1's start marked.
    expect(html.match(/<path class="ln oos-(equity|drawdown)" d="M/g)).toHaveLength(2);
    expect(html.match(/<g class="fold-start">.*?>F1<\/text>/g)).toHaveLength(2);
    expect(html).toContain('>-10.00%</text>');
    expect(html.match(/<th title="sort">Test Sharpe<\/th>/g)).toHaveLength(1);
    expect(html).toContain('<dt>Tested</dt><dd>2024-01-01 10:00 UTC → 2024-01-01 16:40 UTC (6h 40m, 400 bars)</dd>');
    expect(html).toContain('Out of sample (1 of 2 folds): return +1.50% compounded');
    expect(html.match(/<script[^>]+src=|<link[^>]+href=/gi)).toBeNull();
    expect(html).toContain('<dt>Grid</dt><dd>4 parameter set(s)</dd>');

    // A TPE search: the grid's size and the trials each window tried; each fold's rejected trials in its notes.
    const tpe: WalkForwardResult = {
      ...result,
      parameterSets: 6,
      search: { kind: 'tpe', trials: 6, seed: 1, gridSize: 12, startup: 2, batch: 1, rounds: 5 },
      folds: [
        { ...result.folds[0]!, trainRuns: 4, trainSkipped: 2, chosen: { ...result.folds[0]!.chosen!, trial: 3, round: 2 } },
        { ...result.folds[1]!, trainRuns: 4, trainFailures: 1, trainSkipped: 1 },
      ],
      skipped: [{ values: { fast: 20 }, reason: 'slow must be greater than fast' }, { values: { fast: 30 }, reason: 'slow must be greater than fast' }],
    };
    const tpeHtml = renderWalkForwardReport({ result: tpe, context: demoContext });
    expect(tpeHtml).toContain('<dt>Grid</dt><dd>12 combination(s), of which each train window&#39;s search tried 6; 3 of those trials in all skipped by the params schema (each fold&#39;s in its notes)</dd>');
    expect(tpeHtml).toContain('chosen at trial 3 (round 2) of its train window&#39;s TPE search; 2 of 6 trial(s) skipped by the params schema</td>');
    expect(tpeHtml).toContain('test run failed: &#60;boom&#62;; 1 train run(s) failed; 1 of 6 trial(s) skipped by the params schema</td>');
  });
});
