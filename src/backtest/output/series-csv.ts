/**
 * A run's per-bar series as CSV (`halyard backtest --series csv`: `<run>-series.csv` beside the
 * JSON; series-output.ts), for a spreadsheet or `pandas.read_csv` as it is: a header row, then a
 * row a bar in time order, RFC 4180 as csv-export.ts writes the trades and fills.
 *
 * Columns: `time` (the bar's close, ISO 8601 UTC), `time_ms` (the same in epoch milliseconds),
 * `equity` (quote asset at the close), `position` (base held at the close; in a run of several
 * symbols, the quote value held: EquityPoint), then one column a plotted line (ctx.plot), named as
 * the line (`plot_<name>` if the name is one of the four before): the value the strategy plotted
 * while that bar was the latest (after the previous bar's onBar, up to and including this one's,
 * which runs at the close + 1 ms; the last when several), empty when it plotted none then. A point
 * plotted after the last bar's onBar is in `--series json` only.
 *
 * Written a block of rows at a time from the run's columns: a year of 1-minute bars (about 50 MB)
 * never exists as one text or as point objects. The numbers are printed as JSON prints them, a
 * block per JSON.stringify (printing each alone would fill V8's number-string cache: json-numbers.ts).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { csvField } from './csv-export.ts';
import { equityColumnsOf, type EquityColumns } from '../record/equity-columns.ts';
import { plotColumnsOf, type PlotColumns } from '../record/plot-recorder.ts';
import type { BacktestRun, PlotLine } from '../types.ts';

/** Rows made and written at a time. */
const BLOCK = 8_192;
const FIXED = ['time', 'time_ms', 'equity', 'position'] as const;

/** The texts of `values` as JSON prints finite numbers; a non-finite one (NaN: no value) is an empty field. */
function fieldTexts(values: ArrayLike<number>): string[] {
  return JSON.stringify(Array.from(values))
    .slice(1, -1)
    .split(',')
    .map((t) => (t === 'null' ? '' : t));
}

/** The run's equity as columns, whether still the recorder's or built as points. */
function columnsOf(run: BacktestRun): EquityColumns {
  const c = equityColumnsOf(run);
  if (c !== undefined) return c;
  const n = run.equity.length;
  const time = new Float64Array(n);
  const equity = new Float64Array(n);
  const position = new Float64Array(n);
  run.equity.forEach((p, i) => {
    time[i] = p.time;
    equity[i] = p.equity;
    position[i] = p.position;
  });
  return { length: n, time, equity, position };
}

function plotColumns(line: PlotLine): PlotColumns {
  const c = plotColumnsOf(line);
  if (c !== undefined) return c;
  return { times: line.points.map((p) => p[0]), values: line.points.map((p) => p[1]) };
}

/** The CSV's header: the fixed columns, then the plotted lines' names. */
export function seriesHeader(run: Pick<BacktestRun, 'plots'>): string[] {
  return [...FIXED, ...(run.plots ?? []).map((l) => ((FIXED as readonly string[]).includes(l.name) ? `plot_${l.name}` : l.name))];
}

/** Write `run`'s series CSV to `file` (replaced if there). */
export function writeSeriesCsv(file: string, run: BacktestRun): void {
  const eq = columnsOf(run);
  const lines = (run.plots ?? []).map(plotColumns);
  // Per line: the next point not yet placed in a row.
  const next = lines.map(() => 0);
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, `${seriesHeader(run).map(csvField).join(',')}\r\n`);
    const plotted = lines.map(() => new Float64Array(BLOCK));
    for (let start = 0; start < eq.length; start += BLOCK) {
      const end = Math.min(eq.length, start + BLOCK);
      // Each line's value while each bar of the block was the latest: its points up to the bar's close + 1 ms.
      lines.forEach((l, k) => {
        const out = plotted[k] as Float64Array;
        let j = next[k] as number;
        for (let i = start; i < end; i++) {
          const until = (eq.time[i] as number) + 1;
          let v = NaN;
          while (j < l.times.length && (l.times[j] as number) <= until) v = l.values[j++] as number;
          out[i - start] = v;
        }
        next[k] = j;
      });
      const times = fieldTexts(eq.time.subarray(start, end));
      const equity = fieldTexts(eq.equity.subarray(start, end));
      const position = fieldTexts(eq.position.subarray(start, end));
      const values = plotted.map((p) => fieldTexts(p.subarray(0, end - start)));
      const rows = new Array<string>(end - start);
      for (let r = 0; r < rows.length; r++) {
        let row = `${new Date(eq.time[start + r] as number).toISOString()},${times[r]},${equity[r]},${position[r]}`;
        for (const v of values) row += `,${v[r]}`;
        rows[r] = row;
      }
      writeSync(fd, `${rows.join('\r\n')}\r\n`);
    }
  } finally {
    closeSync(fd);
  }
}
