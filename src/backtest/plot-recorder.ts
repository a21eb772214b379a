/**
 * What a strategy plotted during a backtest (`ctx.plot`, StrategyPlotEntry), as the run's
 * `plots`: one line per name, in the order the names first came, each with its pane, its colour
 * when the strategy gave one, and its points as [time, value] pairs in time order. Time is the
 * backtest's clock when the value was plotted (a bar's onBar runs at its close time + 1 ms); a
 * second value of a name at the same time replaces the first, so a line has one point per time.
 * Columns of numbers while the run goes (two arrays a line), pairs when the run is made.
 */
import type { StrategyPlotEntry } from '../strategy/types.ts';
import type { PlotLine } from './types.ts';

class Line {
  readonly times: number[] = [];
  readonly values: number[] = [];

  constructor(
    readonly name: string,
    readonly pane: PlotLine['pane'],
    readonly color: string | undefined,
  ) {}

  add(time: number, value: number): void {
    const last = this.times.length - 1;
    if (last >= 0 && this.times[last] === time) this.values[last] = value;
    else {
      this.times.push(time);
      this.values.push(value);
    }
  }

  line(): PlotLine {
    const points: [number, number][] = new Array<[number, number]>(this.times.length);
    for (let i = 0; i < points.length; i++) points[i] = [this.times[i] as number, this.values[i] as number];
    return { name: this.name, pane: this.pane, ...(this.color === undefined ? {} : { color: this.color }), points };
  }
}

export class PlotRecorder {
  private readonly lines = new Map<string, Line>();

  add(e: StrategyPlotEntry): void {
    let line = this.lines.get(e.name);
    if (line === undefined) this.lines.set(e.name, (line = new Line(e.name, e.pane, e.color)));
    line.add(e.time, e.value);
  }

  /** The lines, in the order their names first came. */
  plots(): PlotLine[] {
    return [...this.lines.values()].map((l) => l.line());
  }
}
