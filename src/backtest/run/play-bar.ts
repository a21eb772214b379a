/**
 * Plays one bar through the simulated venue by the fill model (fill-model.ts): at each point of
 * the path the clock moves to the point's time, queued commands run at its price, then the price
 * moves there from the previous point: each waiting stop whose stop price lies strictly between
 * is printed at its stop price, in the order the move reaches them, then the point's price is
 * printed. The bar's open comes from the previous bar's close as a gap: nothing is printed
 * between them. All fills of the bar share its volume cap. A bar with nothing open and nothing
 * queued only records its close: no print could fill anything, so none is made (and the close
 * reaches the venue only when its next command runs).
 *
 * Timers (`BarTimers`, a strategy's onTimer) fire at their due times, as a live host fires them:
 * each due time inside the bar is fired at that time on the clock, before the path point at or
 * after it (a timer due at the open fires before the open is traded). The strategy sees only
 * closed bars, and what it sends reaches the venue at the next point of the path, at that
 * point's price. A bar with a timer due is played point by point even when nothing is open, so
 * an order a timer sends mid-bar meets the rest of the bar's path.
 *
 * A run of several symbols (run-several.ts, play-period.ts) plays each symbol's bar of a period in
 * slices cut at the timers' due times (`begin`, `playBefore`, `end`), firing them itself between
 * the slices (`DueTimers`): a timer then comes after every symbol's points before it, not only
 * after its own symbol's.
 */
import { closeText, keepClose } from '../../core/indicators/candle.ts';
import type { Candle, CandleText, KeptClose } from '../../core/indicators/candle.ts';
import { barPath, volumeCap } from './fill-model.ts';
import type { PathPoint, ResolvedFillModel } from './fill-model.ts';
import type { SimVenue } from './sim-venue.ts';

/** The backtest's clock: set by the loop, read by the engine and the strategies' contexts. */
export class SimClock {
  t = 0;
  readonly now = (): number => this.t;
}

/** The strategies' timers as the player fires them (the kernel's). */
export interface BarTimers {
  /** The earliest due time (undefined: none). */
  next(): number | undefined;
  /** Fire what is due at `time` (the clock is there already). */
  fire(time: number): void;
}

/** A kernel's timers as BarTimers (engine/kernel.ts nextTimerAt, timer). */
export function kernelTimers(kernel: { readonly nextTimerAt: number | undefined; timer(now: number): void }): BarTimers {
  return { next: () => kernel.nextTimerAt, fire: (t: number) => kernel.timer(t) };
}

/** The timers against the clock: when the next is due, and firing each at its due time (the player's, and a period's of several symbols). */
export class DueTimers {
  constructor(
    private readonly timers: BarTimers,
    private readonly clock: SimClock,
  ) {}

  /** The earliest due time if it is at or before `time`. */
  nextBy(time: number): number | undefined {
    const next = this.timers.next();
    return next !== undefined && next <= time ? next : undefined;
  }

  /** Fire what is due at `time`, on the clock of that time. */
  fireAt(time: number): void {
    this.clock.t = time;
    this.timers.fire(time);
  }

  /**
   * Due times in a gap before a bar opening at `open` (missing bars) are one call at its open,
   * with the latest of them: a host that fell behind fires once (StrategyRunner.timer), not once
   * per tick missed.
   */
  catchUp(open: number): void {
    if (this.nextBy(open - 1) !== undefined) this.fireAt(open);
  }

  /** Fire each timer due at or before `time`, at its due time, earliest first. */
  fireThrough(time: number): void {
    for (let next = this.nextBy(time); next !== undefined; next = this.nextBy(time)) this.fireAt(next);
  }
}

export class BarPlayer {
  private readonly path: PathPoint[] = [];
  /**
   * The close of the last bar played with nothing open or queued, not given to the venue yet: the
   * venue only needs it when its next command runs, which is always in a later play (or finish),
   * so it is handed over then and a run of idle bars reads no text (the journal cuts a bar's
   * texts only when read). candle.ts keepClose.
   */
  private idleText: KeptClose | undefined;
  private idleTime = 0;
  private readonly timers: DueTimers | undefined;
  /** The point of the bar begun (`begin`) to play next. */
  private at = 0;

  constructor(
    private readonly venue: SimVenue,
    private readonly clock: SimClock,
    private readonly symbol: string,
    private readonly model: ResolvedFillModel,
    timers?: BarTimers,
  ) {
    this.timers = timers === undefined ? undefined : new DueTimers(timers, clock);
  }

  play(c: Candle): void {
    const v = this.venue;
    const x = c.exact;
    this.timers?.catchUp(c.openTime);
    if (!v.busy() && !this.timerBy(c.closeTime)) {
      this.deferIdle(c.closeTime, x);
      return;
    }
    this.releaseIdle();
    barPath(c.openTime, c.closeTime, x.open, x.high, x.low, x.close, c.open, c.close, this.path);
    const share = this.model.volumeShare;
    if (share === null) return this.playPath(c, x);
    // One cap for every fill of the bar, taker fills at its points included; lifted after it
    // (the testing harness prints trades between bars).
    v.capFills(this.symbol, volumeCap(x.volume, share)?.toFixed());
    this.playPath(c, x);
    v.capFills(this.symbol, undefined);
  }

  private playPath(c: Candle, x: CandleText): void {
    const v = this.venue;
    const path = this.path;
    for (let i = 0; i < path.length; i++) {
      const p = path[i] as PathPoint;
      this.timers?.fireThrough(p.time);
      if (!v.busy()) {
        if (!this.timerBy(c.closeTime)) {
          this.deferIdle(c.closeTime, x);
          return;
        }
        // Nothing to fill here, but a timer is due later in the bar: the price is noted for the
        // venue (its next command trades from it), as an idle bar's close is.
        this.venue.idle(this.symbol, p.time, p.price);
        continue;
      }
      this.trade(i);
    }
  }

  /** Point `i` of the path with something to fill: queued commands run at its price, then the move there prints the stops it passes and its price. */
  private trade(i: number): void {
    const v = this.venue;
    const path = this.path;
    const p = path[i] as PathPoint;
    this.clock.t = p.time;
    v.flush(this.symbol, p.time, p.price);
    if (v.open.size === 0) return;
    // The move from the previous point passes the stops in between: each triggers at its own
    // price (a gap at the open, i === 0, passes none: stops there fill at the open).
    if (i > 0) {
      const from = (path[i - 1] as PathPoint).price;
      for (let s = v.stopBetween(this.symbol, from, p.price); s !== undefined; s = v.stopBetween(this.symbol, s, p.price)) v.print(this.symbol, p.time, s);
    }
    v.print(this.symbol, p.time, p.price);
  }

  /**
   * Begins `c` to be played in slices: `playBefore` a time, again, then `end`. Every point is
   * played, or noted for the venue when nothing can fill there (as `play` does while a timer is
   * due later in the bar): a timer fired between two slices may send what the rest must meet.
   * Fills share the bar's volume cap until `end`.
   */
  begin(c: Candle): void {
    this.releaseIdle();
    const x = c.exact;
    barPath(c.openTime, c.closeTime, x.open, x.high, x.low, x.close, c.open, c.close, this.path);
    this.at = 0;
    const share = this.model.volumeShare;
    if (share !== null) this.venue.capFills(this.symbol, volumeCap(x.volume, share)?.toFixed());
  }

  /** Plays the begun bar's points before `time`. */
  playBefore(time: number): void {
    const path = this.path;
    for (; this.at < path.length; this.at++) {
      const p = path[this.at] as PathPoint;
      if (p.time >= time) return;
      if (this.venue.busy()) this.trade(this.at);
      else this.venue.idle(this.symbol, p.time, p.price);
    }
  }

  /** Plays the rest of the begun bar and lifts its volume cap. */
  end(): void {
    this.playBefore(Infinity);
    if (this.model.volumeShare !== null) this.venue.capFills(this.symbol, undefined);
  }

  /** Whether a timer is due at or before `time`. */
  private timerBy(time: number): boolean {
    return this.timers !== undefined && this.timers.nextBy(time) !== undefined;
  }

  /** After the last bar: run what is still queued at `time`, with no market price (market orders expire). */
  finish(time: number, rounds = 100): void {
    this.releaseIdle();
    this.clock.t = time;
    for (let i = 0; i < rounds && this.venue.queued > 0; i++) this.venue.flush(this.symbol, time, undefined);
  }

  private deferIdle(time: number, x: CandleText): void {
    this.idleTime = time;
    this.idleText = keepClose(x);
  }

  /** Give the venue the deferred idle close (what `SimVenue.idle` at that bar would have recorded). */
  private releaseIdle(): void {
    const t = this.idleText;
    if (t === undefined) return;
    this.idleText = undefined;
    this.venue.idle(this.symbol, this.idleTime, closeText(t));
  }
}
