/**
 * `halyard backtest --series sampled|csv|json` (src/backtest/output/series-output.ts, series-csv.ts;
 * issue 25, deliverable 4): the JSON holds the equity sampled by default, the whole per-bar series
 * is in a CSV beside it or in the JSON on request, and the run is the same whichever is written.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestCommand } from '../src/cli/commands/backtest/backtest.ts';
import { runCommand } from '../src/cli/test-support.ts';
import { generateSeries } from '../src/core/synthetic/index.ts';
import { openJournal } from '../src/journal/journal.ts';
import { SAMPLED_POINTS } from '../src/backtest/output/series-output.ts';

let dir: string;
let journal: string;
const T0 = Date.UTC(2024, 0, 1);
/** More bars than SAMPLED_POINTS, so the default JSON's curve is thinned. */
const BARS = 6_000;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-bt-series-'));
  journal = join(dir, 'j.db');
  const j = openJournal(journal);
  const series = generateSeries({ seed: 7, startTime: T0, segments: [{ regime: 'slowUp', bars: BARS / 2 }, { regime: 'slowDown', bars: BARS / 2 }] });
  j.klines.insertKlines([...series].map((c) => ({ symbol: 'BTCPHP', interval: '1m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
  j.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (argv: string[]) => runCommand(backtestCommand, argv, { config: true });
const args = (json: string, ...more: string[]) => ['backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--interval', '1m', '--journal', journal, '--out-dir', join(dir, 'out'), '--json', join(dir, json), ...more];

interface Point {
  time: number;
  equity: number;
  position: number;
}
interface Saved {
  run: Record<string, unknown> & {
    barCount: number;
    equity?: Point[];
    equitySampled?: Point[];
    series?: { points: number; sampled: number; csv?: string; full: string };
    plots: { name: string; pointCount?: number; points?: [number, number][] }[];
  };
  metrics: { maxDrawdownPct: number; endEquity: number };
}
const saved = (json: string) => JSON.parse(readFileSync(join(dir, json), 'utf8')) as Saved;

/** The deepest fall below a running peak, in percent, from `start`. */
function maxDrawdownPct(start: number, points: readonly Point[]): number {
  let peak = start;
  let worst = 0;
  for (const p of points) {
    peak = Math.max(peak, p.equity);
    worst = Math.max(worst, ((peak - p.equity) / peak) * 100);
  }
  return worst;
}

describe('halyard backtest --series', () => {
  let full: Saved;
  beforeAll(async () => {
    const r = await run(args('full.json', '--series', 'json'));
    expect(r.err).toBe('');
    full = saved('full.json');
  });

  it('--series json writes every point in the JSON, as before: run.equity a point a bar, each plotted line its points', () => {
    expect(full.run.equity).toHaveLength(full.run.barCount);
    expect(full.run.barCount).toBe(BARS);
    expect(full.run.plots.map((l) => l.name)).toEqual(['fast SMA', 'slow SMA']);
    expect(full.run.plots.every((l) => (l.points?.length ?? 0) > BARS - 100)).toBe(true);
    expect(full.run).not.toHaveProperty('series');
    expect(full.run).not.toHaveProperty('equitySampled');
  });

  it('by default the JSON holds the equity sampled, keeping its ends, its extremes and its maximum drawdown, and the rest of the run as it is', async () => {
    const r = await run(args('default.json'));
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/^series /m);
    const d = saved('default.json');
    const points = full.run.equity as Point[];
    const sampled = d.run.equitySampled as Point[];
    expect(d.run).not.toHaveProperty('equity');
    expect(d.run.series).toMatchObject({ points: BARS, sampled: sampled.length });
    expect(d.run.series?.full).toMatch(/--series csv .*--series json/);
    expect(sampled.length).toBeLessThanOrEqual(SAMPLED_POINTS);
    expect(sampled.length).toBeGreaterThan(SAMPLED_POINTS / 2);
    // Points of the run, in time order, both ends included.
    const byTime = new Map(points.map((p) => [p.time, p]));
    expect(sampled.every((p) => byTime.get(p.time)?.equity === p.equity && byTime.get(p.time)?.position === p.position)).toBe(true);
    expect(sampled.every((p, i) => i === 0 || p.time > (sampled[i - 1] as Point).time)).toBe(true);
    expect([sampled[0], sampled.at(-1)]).toEqual([points[0], points.at(-1)]);
    const equities = (ps: readonly Point[]) => ps.map((p) => p.equity);
    expect(Math.min(...equities(sampled))).toBe(Math.min(...equities(points)));
    expect(Math.max(...equities(sampled))).toBe(Math.max(...equities(points)));
    const start = (points[0] as Point).equity;
    expect(maxDrawdownPct(start, sampled)).toBeCloseTo(maxDrawdownPct(start, points), 12);
    // The plotted lines are named and counted, not listed.
    expect(d.run.plots).toEqual(full.run.plots.map((l) => ({ name: l.name, pane: 'price', ...('color' in l ? { color: (l as { color?: string }).color } : {}), pointCount: l.points?.length })));
    // Everything else is the same run.
    const rest = (s: Saved) => Object.fromEntries(Object.entries(s.run).filter(([k]) => !['equity', 'equitySampled', 'series', 'plots'].includes(k)));
    expect(rest(d)).toEqual(rest(full));
    expect(d.metrics).toEqual(full.metrics);
    expect(Object.keys(d.run).slice(Object.keys(d.run).indexOf('series'), Object.keys(d.run).indexOf('series') + 3)).toEqual(['series', 'equitySampled', 'plots']);
    expect(statSync(join(dir, 'default.json')).size * 3).toBeLessThan(statSync(join(dir, 'full.json')).size);
  });

  it('--series csv also writes every bar beside the JSON: time, equity, position and the plotted lines, as the full JSON has them', async () => {
    const r = await run(args('csv.json', '--series', 'csv'));
    expect(r.code).toBe(0);
    const csv = join(dir, 'csv-series.csv');
    expect(r.out).toContain(`series  ${csv}`);
    const d = saved('csv.json');
    expect(d.run.series).toMatchObject({ points: BARS, csv, full: `every point: ${csv}` });
    const [header, ...rows] = readFileSync(csv, 'utf8').trimEnd().split('\r\n');
    expect(header).toBe('time,time_ms,equity,position,fast SMA,slow SMA');
    expect(rows).toHaveLength(BARS);
    const points = full.run.equity as Point[];
    rows.forEach((row, i) => {
      const [iso, ms, equity, position] = row.split(',');
      const p = points[i] as Point;
      expect([new Date(iso as string).getTime(), Number(ms), Number(equity), Number(position)]).toEqual([p.time, p.time, p.equity, p.position]);
    });
    // A plotted value sits on the bar whose onBar plotted it (at the close + 1 ms); none plotted there is an empty field.
    full.run.plots.forEach((line, k) => {
      const column = new Map(rows.map((row) => row.split(',')).map((f) => [Number(f[1]) + 1, f[4 + k] as string]));
      expect(line.points?.every(([t, v]) => Number(column.get(t)) === v)).toBe(true);
      expect([...column.values()].filter((v) => v !== '')).toHaveLength(line.points?.length ?? -1);
    });
  });

  it('refuses an unknown --series, and --series with a sweep (which writes no per-bar series), naming why', async () => {
    const bad = await run(args('bad.json', '--series', 'parquet'));
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/series.*parquet|parquet.*series/s);
    expect(bad.err).toMatch(/sampled.*csv.*json/s);
    const sweep = await run(args('sweep.json', '--series', 'csv', '--sweep', 'fast=5,10', '--workers', '0'));
    expect(sweep.code).toBe(2);
    expect(sweep.err).toContain('--series csv is written for a single run, not a sweep');
  });
});
