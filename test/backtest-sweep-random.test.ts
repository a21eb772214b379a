/**
 * `halyard backtest --sweep ... --search random --trials N [--seed S]`: N distinct grid points, the
 * same for the same seed, said in the terminal, the JSON and the report; bad trials and options
 * that need another are refused. In process (--workers 0) against a temp journal.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepJournal } from './support/sweep-journal.ts';

const fixture = sweepJournal('random', 600);
const { run, base } = fixture;
// 3 x 4 = 12 points; slow <= fast rejects (10,10), (15,10).
const grid = ['--sweep', 'fast=5,10,15', 'slow=10:40:10'];

interface Saved {
  results: { values: Record<string, number> }[];
  skipped: { values: Record<string, number> }[];
  search?: unknown;
}
const drawn = (s: Saved): string[] => [...s.results, ...s.skipped].map((r) => `${r.values['fast']},${r.values['slow']}`).sort();

describe('halyard backtest --sweep --search random', () => {
  it('runs --trials distinct points, says so, writes search in the JSON and "not run" cells in the report; the same seed draws the same points', async () => {
    const json = join(fixture.dir, 'a', 'random.json');
    const r = await run([...base(), ...grid, '--search', 'random', '--trials', '5', '--seed', '3', '--json', json]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('\nrandom search: 5 of 12 grid points (seed 3)\n');
    const saved = JSON.parse(readFileSync(json, 'utf8')) as Saved;
    expect(saved.search).toEqual({ kind: 'random', trials: 5, seed: 3, gridSize: 12 });
    expect(new Set(drawn(saved)).size).toBe(5);
    const html = readFileSync(join(fixture.dir, 'a', 'random.html'), 'utf8');
    expect(html.match(/<td class="cell absent"[^>]*>not run<\/td>/g)).toHaveLength(7);
    expect(html).toContain('id="random-sample"');

    const json2 = join(fixture.dir, 'b', 'random.json');
    expect((await run([...base(), ...grid, '--search', 'random', '--trials', '5', '--seed', '3', '--json', json2])).code).toBe(0);
    expect(drawn(JSON.parse(readFileSync(json2, 'utf8')) as Saved)).toEqual(drawn(saved));

    // Seed 1 by default; --search grid (the default) runs every point and writes no search.
    const json3 = join(fixture.dir, 'c', 'grid.json');
    const g = await run([...base(), ...grid, '--search', 'grid', '--json', json3]);
    expect(g.code).toBe(0);
    expect(g.out).not.toContain('random search');
    const full = JSON.parse(readFileSync(json3, 'utf8')) as Saved;
    expect(full.search).toBeUndefined();
    expect(full.results.length + full.skipped.length).toBe(12);
    const d = await run([...base(), ...grid, '--search', 'random', '--trials', '2', '--json', join(fixture.dir, 'd', 'x.json')]);
    expect(d.out).toContain('random search: 2 of 12 grid points (seed 1)');
  });

  it('with --walk-forward, every train window runs the same sample', async () => {
    const r = await run([...base(), '--sweep', 'fast=5,10,15', 'slow=20,30', '--search', 'random', '--trials', '3', '--walk-forward', '--folds', '2', '--json', join(fixture.dir, 'wf', 'wf.json')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('random search: 3 of 6 grid points (seed 1), the same points in every train window');
    // The JSON and the report say so too.
    const saved = JSON.parse(readFileSync(join(fixture.dir, 'wf', 'wf.json'), 'utf8')) as { search?: unknown };
    expect(saved.search).toEqual({ kind: 'random', trials: 3, seed: 1, gridSize: 6 });
    expect(readFileSync(join(fixture.dir, 'wf', 'wf.html'), 'utf8')).toContain('random: 3 of 6 grid points (seed 1), the same in every train window');
  });

  it('refuses trials the grid cannot give, naming its size, and options without the one they need', async () => {
    const refused = async (extra: string[], message: string): Promise<void> => {
      const r = await run([...base(), ...extra]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(message);
    };
    await refused([...grid, '--search', 'random', '--trials', '13'], "--trials 13 is more than the grid's points: the grid has 12 point(s) (fast: 3 x slow: 4); give at most 12");
    await refused([...grid, '--search', 'random', '--trials', '0'], '--trials 0: expected a whole number from 1 to 12; the grid has 12 point(s)');
    await refused([...grid, '--search', 'random', '--trials', '2.5'], '--trials 2.5: expected a whole number from 1 to 12');
    await refused([...grid, '--search', 'random', '--trials', 'many'], "--trials: expected a whole number of grid points, got 'many'");
    await refused([...grid, '--search', 'random'], '--search random needs --trials N');
    await refused([...grid, '--trials', '5'], '--trials is a search setting: it needs --search random or --search tpe');
    await refused([...grid, '--search', 'grid', '--seed', '2'], '--seed is a search setting: it needs --search random or --search tpe');
    await refused([...grid, '--search', 'random', '--trials', '5', '--seed', '-1'], "--seed: expected a whole number >= 0, got '-1'");
    const single = await run([...base().slice(0, -2), '--search', 'random', '--trials', '5']);
    expect(single.code).toBe(2);
    expect(single.err).toContain('--search applies to a sweep: it needs --sweep');
    const bayes = await run([...base(), ...grid, '--search', 'bayes']);
    expect(bayes.code).not.toBe(0);
    expect(bayes.err).toMatch(/Invalid values:[\s\S]*search, Given: "bayes", Choices: "grid", "random"/);
  });
});
