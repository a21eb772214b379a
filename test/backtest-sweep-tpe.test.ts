/**
 * `halyard backtest --sweep ... --search tpe --trials N [--seed S]`: N distinct grid points, a
 * random startup round then points proposed from the results so far, the same for the same seed
 * whatever --workers is; the terminal, the JSON and the report say so and give each point's trial
 * and round; walk-forward runs a search per train window; bad trials are refused. In process
 * (--workers 0) against a temp journal, and once on two worker threads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepJournal } from './support/sweep-journal.ts';

const fixture = sweepJournal('tpe', 600);
const { run, base } = fixture;
// 3 x 4 = 12 points; slow <= fast rejects (10,10), (15,10).
const grid = ['--sweep', 'fast=5,10,15', 'slow=10:40:10'];

interface Tried {
  values: Record<string, number>;
  trial: number;
  round: number;
}
interface Saved {
  results: (Tried & { rank: number })[];
  skipped: Tried[];
  failed: Tried[];
  search?: unknown;
}
/** The points in the order they were tried. */
const order = (s: Saved): string[] => [...s.results, ...s.skipped, ...s.failed].sort((a, b) => a.trial - b.trial).map((r) => `${r.values['fast']},${r.values['slow']}`);

describe('halyard backtest --sweep --search tpe', () => {
  it('runs --trials distinct points in rounds, says so, writes the order in the JSON and the report; the same seed tries the same points', async () => {
    const json = join(fixture.dir, 'a', 'tpe.json');
    const r = await run([...base(), ...grid, '--search', 'tpe', '--trials', '7', '--seed', '3', '--json', json]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    // 7 trials: batch 1 (one point per 20 trials, at least 1), startup max(1, min(10, ceil(7 / 3))) = 3, then 4 rounds of one.
    expect(r.out).toContain('\nTPE search: 7 of 12 grid points (seed 3): 3 at random, then 4 proposed 1 a round from the results so far, 5 rounds\n');
    expect(r.out).toMatch(/\nthe best was tried at trial \d of 7, round \d\n/);
    expect(r.out).toMatch(/^\s*#\s+Trial\s+Round\s+fast\s+slow\s+Sharpe\*/m);
    const saved = JSON.parse(readFileSync(json, 'utf8')) as Saved;
    expect(saved.search).toEqual({ kind: 'tpe', trials: 7, seed: 3, gridSize: 12, startup: 3, batch: 1, rounds: 5 });
    const tried = order(saved);
    expect(tried).toHaveLength(7);
    expect(new Set(tried).size).toBe(7);
    expect([...saved.results, ...saved.skipped].map((t) => t.round).sort()).toEqual([1, 1, 1, 2, 3, 4, 5]);
    const html = readFileSync(join(fixture.dir, 'a', 'tpe.html'), 'utf8');
    expect(html.match(/<td class="cell absent"[^>]*>not run<\/td>/g)).toHaveLength(5);
    expect(html).toContain('not run (not proposed by the TPE search)');
    expect(html).toContain('id="tpe-search"');
    expect(html).toContain('<dt>Search</dt><dd>TPE: 7 of 12 grid points (seed 3): 3 at random');
    expect(html).toContain('<section id="search-history">');
    expect(html).toContain('<th title="sort">Trial</th><th title="sort">Round</th>');

    const json2 = join(fixture.dir, 'b', 'tpe.json');
    expect((await run([...base(), ...grid, '--search', 'tpe', '--trials', '7', '--seed', '3', '--json', json2])).code).toBe(0);
    expect(order(JSON.parse(readFileSync(json2, 'utf8')) as Saved)).toEqual(tried);
    // Two worker threads try the same points in the same order: the batch is the trials', not the workers'.
    const json3 = join(fixture.dir, 'c', 'tpe.json');
    const threaded = await run([...base().map((a, i, all) => (all[i - 1] === '--workers' ? '2' : a)), ...grid, '--search', 'tpe', '--trials', '7', '--seed', '3', '--json', json3]);
    expect(threaded.code).toBe(0);
    expect(threaded.out).toContain('on 2 worker thread(s)');
    expect(threaded.out).toContain('\nTPE search: 7 of 12 grid points (seed 3): 3 at random, then 4 proposed 1 a round from the results so far, 5 rounds\n');
    const threadedSaved = JSON.parse(readFileSync(json3, 'utf8')) as Saved;
    expect(order(threadedSaved)).toEqual(tried);
    expect(threadedSaved.search).toEqual(saved.search);
    expect(threadedSaved.results.map((t) => [t.rank, t.trial, t.round])).toEqual(saved.results.map((t) => [t.rank, t.trial, t.round]));

    // Seed 1 by default; one trial is the random first round alone.
    const d = await run([...base(), ...grid, '--search', 'tpe', '--trials', '1', '--json', join(fixture.dir, 'd', 'x.json')]);
    expect(d.code).toBe(0);
    expect(d.out).toContain('TPE search: 1 of 12 grid points (seed 1): all at random, as its first round is (give more --trials than 1 for proposals)');
  });

  it('with --walk-forward, every train window runs a search of its own and tests its best', async () => {
    const r = await run([...base(), '--sweep', 'fast=5,10,15', 'slow=20,30', '--search', 'tpe', '--trials', '4', '--walk-forward', '--folds', '2', '--json', join(fixture.dir, 'wf', 'wf.json')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain("2 fold(s) of 4 TPE trial(s) each, of the grid's 6 combination(s)");
    expect(r.out).toContain("TPE search: 4 of 6 grid points (seed 1): 2 at random, then 2 proposed 1 a round from the results so far, 3 rounds; a search of its own in every train window (the same seed), each test window running its train window's best");
    const saved = JSON.parse(readFileSync(join(fixture.dir, 'wf', 'wf.json'), 'utf8')) as { search?: unknown; folds: { chosen: { trial?: number; round?: number } | null; trainRuns: number; trainFailures: number; trainSkipped: number }[] };
    expect(saved.search).toEqual({ kind: 'tpe', trials: 4, seed: 1, gridSize: 6, startup: 2, batch: 1, rounds: 3 });
    // Each window tried its 4 trials (none rejected on this grid).
    expect(saved.folds.map((f) => f.trainRuns + f.trainFailures + f.trainSkipped)).toEqual([4, 4]);
    expect(saved.folds.every((f) => f.chosen?.trial !== undefined && f.chosen.round !== undefined)).toBe(true);
    const html = readFileSync(join(fixture.dir, 'wf', 'wf.html'), 'utf8');
    expect(html).toContain('<dt>Search</dt><dd>TPE: 4 of 6 grid points (seed 1)');
    expect(html).toContain("<dt>Grid</dt><dd>6 combination(s), of which each train window&#39;s search tried 4</dd>");
    expect(html).toMatch(/chosen at trial \d \(round \d\) of its train window&#39;s TPE search|chosen at trial \d \(round \d\) of its train window's TPE search/);
  });

  it('refuses trials the grid cannot give and a search without its trials', async () => {
    const refused = async (extra: string[], message: string): Promise<void> => {
      const r = await run([...base(), ...extra]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(message);
    };
    await refused([...grid, '--search', 'tpe', '--trials', '13'], "--trials 13 is more than the grid's points: the grid has 12 point(s) (fast: 3 x slow: 4); give at most 12, or drop --search tpe to run them all");
    await refused([...grid, '--search', 'tpe', '--trials', '0'], '--trials 0: expected a whole number from 1 to 12; the grid has 12 point(s)');
    await refused([...grid, '--search', 'tpe'], '--search tpe needs --trials N');
    await refused([...grid, '--search', 'tpe', '--trials', '5', '--seed', '1.5'], "--seed: expected a whole number >= 0, got '1.5'");
  });
});
