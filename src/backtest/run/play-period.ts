/**
 * One period of a run of several symbols (run-several.ts) through the venue: each symbol's bar of
 * the period played (fill-model.ts, by its BarPlayer), the symbols one after the other, and the
 * strategies' timers fired at their due times inside the period as a one-symbol run fires them
 * inside its bars (play-bar.ts).
 *
 * A timer due inside the period cuts it: every symbol's points before the due time are played,
 * then the timer fires (on the clock of that time), then the symbols go on from there. So a timer
 * comes after every point before it of every symbol and before every point at or after it (one
 * due at a point's time fires before that point is traded); it sees no bar of the period (bars
 * are delivered at the period's close + 1) and no fill after its time, and what it sends meets
 * each symbol's next point. Without a timer due inside, each bar is played whole, as before.
 *
 * A command the strategy sends while the symbols are played (a reaction to a fill) for a symbol
 * whose part of the same slice is still to be played waits until the slice is played (PeriodGate):
 * it then runs at that symbol's next point, after the fill it reacted to, not at an earlier one.
 */
import type { Candle } from '../../core/indicators/candle.ts';
import type { DetailedCandle } from '../../data/resample.ts';
import type { VenueCommand, VenueEventSink, VenuePort } from '../../ports/venue.ts';
import type { BarPlayer, DueTimers } from './play-bar.ts';
import type { SimVenue } from './sim-venue.ts';

/**
 * The venue as the kernel sees it in a run of several symbols: a command sent while one symbol's
 * part of a slice is played, for a symbol whose part is still to come, is held until the slice
 * has been played, then sent: it runs at that symbol's next point. Sent at once, it would run at
 * a point before what the strategy reacted to (a reaction to a fill at 10:40 filled at another
 * symbol's 10:00 open).
 */
export class PeriodGate implements VenuePort {
  /** The symbols whose part of the slice is still to be played (empty outside the plays). */
  readonly ahead = new Set<string>();
  private held: VenueCommand[] = [];

  constructor(private readonly venue: SimVenue) {}

  connect(sink: VenueEventSink): void {
    this.venue.connect(sink);
  }

  send(command: VenueCommand): void {
    if (this.ahead.has(command.symbol)) this.held.push(command);
    else this.venue.send(command);
  }

  /** The slice is played: what was held goes to the venue, in the order it was sent. */
  release(): void {
    this.ahead.clear();
    if (this.held.length === 0) return;
    const held = this.held;
    this.held = [];
    for (const c of held) this.venue.send(c);
  }
}

/**
 * One symbol's bar of a period, played in slices: its shorter bars when detailed (the venue plays
 * fills on those, as run-backtest.ts playDetail), else the bar. A part wholly before a slice's end
 * is played whole (`BarPlayer.play`); the part the end falls inside is begun and played up to it.
 */
export class BarSlices {
  private parts: readonly Candle[] = [];
  private readonly one: Candle[] = [];
  /** The next part to play, and whether it is begun (played up to a time). */
  private k = 0;
  private begun = false;

  constructor(readonly player: BarPlayer) {}

  /** The symbol's bar of the period to play. */
  set(c: Candle, detailed: boolean): void {
    const detail = detailed ? (c as Partial<DetailedCandle>).detail : undefined;
    if (detail !== undefined && detail.length > 0) this.parts = detail;
    else {
      this.one[0] = c;
      this.parts = this.one;
    }
    this.k = 0;
    this.begun = false;
  }

  /** Plays the points before `time`. */
  playBefore(time: number): void {
    const parts = this.parts;
    while (this.k < parts.length) {
      const c = parts[this.k] as Candle;
      if (!this.begun) {
        if (c.openTime >= time) return;
        if (c.closeTime < time) {
          this.player.play(c);
          this.k++;
          continue;
        }
        this.player.begin(c);
        this.begun = true;
      }
      this.player.playBefore(time);
      if (c.closeTime >= time) return;
      this.player.end();
      this.begun = false;
      this.k++;
    }
  }

  /** Plays the rest of the bar. */
  finish(): void {
    if (this.begun) {
      this.player.end();
      this.begun = false;
      this.k++;
    }
    for (; this.k < this.parts.length; this.k++) this.player.play(this.parts[this.k] as Candle);
  }
}

/** A symbol of the period as playPeriod plays it. */
export interface PeriodLeg {
  readonly symbol: string;
  readonly slices: BarSlices;
}

const finish = (leg: PeriodLeg): void => leg.slices.finish();

/**
 * Plays the period opening at `open` and closing at `close` (each leg's bar `set` already): the
 * timers due in a gap before it fire once at its open (DueTimers.catchUp, as a one-symbol run
 * does), each due inside it between the slices (the header says how), and the bars are played to
 * their close. The timer due at the close + 1 is the caller's, after it delivers the bars.
 */
export function playPeriod(group: readonly PeriodLeg[], gate: PeriodGate, open: number, close: number, timers: DueTimers | undefined): void {
  if (timers !== undefined) {
    timers.catchUp(open);
    for (let due = timers.nextBy(close); due !== undefined; due = timers.nextBy(close)) {
      const at = due;
      slice(group, gate, (leg) => leg.slices.playBefore(at));
      timers.fireAt(at);
    }
  }
  slice(group, gate, finish);
}

/** Each leg's part of a slice, in the legs' order, behind the gate. */
function slice(group: readonly PeriodLeg[], gate: PeriodGate, play: (leg: PeriodLeg) => void): void {
  for (const leg of group) gate.ahead.add(leg.symbol);
  for (const leg of group) {
    gate.ahead.delete(leg.symbol);
    play(leg);
  }
  gate.release();
}
