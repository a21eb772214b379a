/**
 * What a strategy plotted during a backtest (`ctx.plot`, StrategyPlotEntry), as the run's
 * `plots`: one line per name, in the order the names first came, each with its pane, its colour
 * when the strategy gave one, and its points as [time, value] pairs in time order. Time is the
 * backtest's clock when the value was plotted (a bar's onBar runs at its close time + 1 ms); a
 * second value of a name at the same time replaces the first, so a line has one point per time.
 * Columns of numbers while the run goes (two a line), and after: a line's `points` is a
 * lazy field (lazy-field.ts) built as pairs the first time it is read. A year of 1-minute bars
 * plotting two lines is a million [time, value] arrays, about 65 MB of heap, which the report
 * (chart-data.ts, through `plotColumnsOf`) and the JSON (`plotsForJson`) never need made.
 *
 * The columns grow in Float64Array chunks (PlotColumn), joined once when the run ends: as plain
 * arrays grown by push, two lines over a year of 1-minute bars added about 55 MB to a backtest's
 * peak RSS (each growth a larger copy, the old one garbage until a full collection), 17 MB as
 * chunks. The values are the same doubles either way.
 */
import { jsonSlices } from '../../data/json-file.ts';
import type { StrategyPlotEntry } from '../../strategy/types.ts';
import { numbersText } from './json-numbers.ts';
import { defineLazyField, lazySource } from './lazy-field.ts';
import type { PlotLine } from '../types.ts';

/** A line's points as two columns of the same length: clock times and values. */
export interface PlotColumns {
  readonly times: Float64Array | readonly number[];
  readonly values: Float64Array | readonly number[];
}

/** Slots per chunk: growing by whole chunks never copies what is filled. */
const CHUNK = 65_536;

/**
 * A column of doubles that grows by chunks; `join` gives it as one array, exactly as long. Once
 * past its first 1,024 values it grows to `expected` (the run's bars, when its source knows them):
 * a line plotted every bar then fills one array in place and `join` copies nothing, while a line
 * plotted now and then never takes a bar's worth of room.
 */
class PlotColumn {
  private readonly full: Float64Array[] = [];
  private chunk = new Float64Array(1024);
  private at = 0;
  /** Values in the full chunks (the first may be longer than CHUNK). */
  private before = 0;

  constructor(private readonly expected: number) {}

  get length(): number {
    return this.before + this.at;
  }

  /** The last value pushed (the column is not empty). */
  last(): number {
    return this.chunk[this.at - 1] as number;
  }

  setLast(value: number): void {
    this.chunk[this.at - 1] = value;
  }

  push(value: number): void {
    if (this.at === this.chunk.length) {
      // The first chunk grows to the expected size, or doubles up to CHUNK (a line plotted a few times costs little); full ones are kept as they are.
      if (this.full.length === 0 && (this.chunk.length < CHUNK || this.chunk.length < this.expected)) {
        const next = new Float64Array(Number.isSafeInteger(this.expected) && this.expected > this.chunk.length ? this.expected : this.chunk.length * 2);
        next.set(this.chunk);
        this.chunk = next;
      } else {
        this.full.push(this.chunk);
        this.before += this.chunk.length;
        this.chunk = new Float64Array(CHUNK);
        this.at = 0;
      }
    }
    this.chunk[this.at++] = value;
  }

  join(): Float64Array {
    if (this.full.length === 0) return this.chunk.subarray(0, this.at);
    const out = new Float64Array(this.length);
    let o = 0;
    for (const c of this.full) {
      out.set(c, o);
      o += c.length;
    }
    out.set(this.chunk.subarray(0, this.at), o);
    return out;
  }
}

function pairsOf(c: PlotColumns): [number, number][] {
  const points: [number, number][] = new Array<[number, number]>(c.times.length);
  for (let i = 0; i < points.length; i++) points[i] = [c.times[i] as number, c.values[i] as number];
  return points;
}

class Line {
  readonly times: PlotColumn;
  readonly values: PlotColumn;

  constructor(
    readonly name: string,
    readonly pane: PlotLine['pane'],
    readonly color: string | undefined,
    expected: number,
  ) {
    this.times = new PlotColumn(expected);
    this.values = new PlotColumn(expected);
  }

  add(time: number, value: number): void {
    if (this.times.length > 0 && this.times.last() === time) this.values.setLast(value);
    else {
      this.times.push(time);
      this.values.push(value);
    }
  }

  line(): PlotLine {
    const line = { name: this.name, pane: this.pane, ...(this.color === undefined ? {} : { color: this.color }), points: [] as [number, number][] };
    defineLazyField<PlotColumns, [number, number][]>(line, 'points', { times: this.times.join(), values: this.values.join() }, pairsOf);
    return line;
  }
}

/** The columns a plotted line's points will be built from, while they are not built (not read, not replaced). */
export function plotColumnsOf(line: PlotLine): PlotColumns | undefined {
  return lazySource<PlotColumns>(line, 'points');
}

/**
 * JSON text of points [start, end) of a line (JsonSlices.render): as JSON.stringify writes each
 * [time, value] pair with `unit` ('' on one line); undefined where a value is not finite (the
 * writer then stringifies the pairs, through the replacer).
 */
function pairsText(c: PlotColumns, start: number, end: number, pad: string, unit: string): string | undefined {
  const times = numbersText(c.times, start, end);
  const values = numbersText(c.values, start, end);
  if (times === undefined || values === undefined) return undefined;
  const open = unit === '' ? `\n${pad}[` : `\n${pad}[\n${pad}${unit}`;
  const between = unit === '' ? ',' : `,\n${pad}${unit}`;
  const close = unit === '' ? ']' : `\n${pad}]`;
  const parts = new Array<string>(end - start);
  for (let k = 0; k < parts.length; k++) parts[k] = `${open}${times[k]}${between}${values[k]}${close}`;
  return parts.join(',');
}

/**
 * The run's `plots` as data/json-file.ts writeJsonFile should get them: each line with its keys in
 * order, its points, when not built, written from the columns a slice at a time (the same text).
 */
export function plotsForJson(lines: readonly PlotLine[]): readonly object[] {
  return lines.map((line) => {
    const c = plotColumnsOf(line);
    if (c === undefined) return line;
    const view: Record<string, unknown> = {};
    for (const key of Object.keys(line)) {
      view[key] =
        key === 'points'
          ? jsonSlices(
              c.times.length,
              (start, end) => pairsOf({ times: c.times.slice(start, end), values: c.values.slice(start, end) }),
              (start, end, pad, unit) => pairsText(c, start, end, pad, unit),
            )
          : (line as unknown as Record<string, unknown>)[key];
    }
    return view;
  });
}

export class PlotRecorder {
  private readonly lines = new Map<string, Line>();

  /** `expected`: the points a line plotted every bar will hold (the run's bars, when known; 0 when not). */
  constructor(private readonly expected = 0) {}

  add(e: StrategyPlotEntry): void {
    let line = this.lines.get(e.name);
    if (line === undefined) this.lines.set(e.name, (line = new Line(e.name, e.pane, e.color, this.expected)));
    line.add(e.time, e.value);
  }

  /** The lines, in the order their names first came. */
  plots(): PlotLine[] {
    return [...this.lines.values()].map((l) => l.line());
  }
}
