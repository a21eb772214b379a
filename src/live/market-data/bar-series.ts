/**
 * One series of closed bars, (symbol, interval), shared by every subscriber (issue 21 deliverable
 * 1; protocol notes 4: kline `k.x: true` is the closed event; spec 4.4 REST klines).
 *
 * Two sources feed it, and one queue serialises them, so the order of delivery is the order of
 * the queue and `BarSequencer` decides once-only:
 *   - the stream's closed events; one that jumps over expected bars first has the range between
 *     asked over REST (a reconnect, a lost event, or just a period without trades);
 *   - REST, asked when a bar is due and has not come: after `streamGraceMs` while the stream is
 *     LIVE (a lost `x: true`), after `pollDelayMs` while it is not (polling takes over), and at
 *     once when the socket is back after a gap (catch-up, then the stream is trusted again).
 * Whatever comes second for a period is a duplicate and is dropped with a log line, so handing
 * over between stream and polling never delivers a bar twice.
 *
 * `checkedTo`: every bar opening before it was delivered or does not exist (REST said so). It keeps
 * a quiet period from being asked again and again.
 *
 * Each delivered bar is recorded to the journal (`live:stream` / `live:rest`), so a live run can be
 * backtested on exactly the bars its strategies saw.
 */
import { Observable, Subject, type SchedulerLike, type Subscription } from 'rxjs';
import type { Candle } from '../../core/indicators/candle.ts';
import { nextOpen, periodClose, periodOpen } from '../../core/market/intervals.ts';
import type { Interval } from '../../strategy/types.ts';
import { BarSequencer } from './bar-sequencer.ts';
import { journalRow } from './candles.ts';
import { fetchClosedBars, type RestBarsDeps } from './rest-bars.ts';
import type { ClosedBar, MarketDataJournal, MarketStreamState } from './types.ts';

/** Bars kept for a subscriber that joins just after they were delivered (its warm-up ended before them). */
const RECENT = 3;

export interface BarSeriesDeps extends RestBarsDeps {
  readonly scheduler: SchedulerLike;
  readonly journal?: MarketDataJournal | undefined;
  readonly pollDelayMs: number;
  readonly streamGraceMs: number;
  /** Called whenever the series' health changes. */
  readonly changed: () => void;
}

export interface SeriesHealth {
  readonly state: MarketStreamState;
  readonly mode: 'stream' | 'polling';
  readonly reason: string;
  readonly since: number;
  readonly lastBarOpenTime: number | undefined;
}

export class BarSeries {
  private readonly out = new Subject<ClosedBar>();
  private readonly seq: BarSequencer;
  private checkedTo: number;
  private queue: Promise<void> = Promise.resolve();
  private timer: Subscription | undefined;
  private readonly recent: ClosedBar[] = [];
  /** The connection's state for this stream, as the composition reports it. */
  private link: { state: MarketStreamState; reason: string } = { state: 'CONNECTING', reason: 'not yet open' };
  /** The venue refused the stream: polling for good. */
  private refusedReason: string | undefined;
  private catchingUp = 0;
  private stopped = false;
  private health: SeriesHealth;

  constructor(
    readonly symbol: string,
    readonly interval: Interval,
    private readonly deps: BarSeriesDeps,
    /** Open time of the first bar wanted. */
    first: number,
  ) {
    this.seq = new BarSequencer(interval, first);
    this.checkedTo = first;
    this.health = { state: 'CONNECTING', mode: 'polling', reason: this.link.reason, since: deps.now(), lastBarOpenTime: undefined };
  }

  start(): void {
    this.arm();
  }

  /** Bars opening after `after`: the recent ones first when newer, then the live ones. */
  bars(after: number): Observable<ClosedBar> {
    return new Observable<ClosedBar>((sub) => {
      let last = after;
      const oldest = this.recent[0];
      if (oldest && oldest.candle.openTime > after + 1 && this.recent.length === RECENT) {
        this.deps.log({ level: 'warn', topic: 'subscribe', time: this.deps.now(), message: `${this.label}: a subscriber asked for bars after ${iso(after)}, the series replays from ${iso(oldest.candle.openTime)} only` });
      }
      for (const b of this.recent) {
        if (b.candle.openTime > last) {
          last = b.candle.openTime;
          sub.next(b);
        }
      }
      return this.out.subscribe({
        next: (b) => {
          if (b.candle.openTime <= last) return;
          last = b.candle.openTime;
          sub.next(b);
        },
        complete: () => sub.complete(),
      });
    });
  }

  get label(): string {
    return `${this.symbol} ${this.interval}`;
  }

  status(): SeriesHealth {
    return this.health;
  }

  /** A closed kline event from the stream (`x: true`). */
  streamBar(candle: Candle): void {
    this.enqueue(() => this.take(candle));
  }

  /** The connection's state changed (LIVE, STALE, DOWN ...). */
  setLink(state: MarketStreamState, reason: string): void {
    this.link = { state, reason };
    this.refresh();
    this.arm();
  }

  /** The socket is open again after a gap: bars of the gap are fetched now, then the stream is trusted. */
  reconnected(reason: string): void {
    this.catchingUp++;
    this.refresh(`catching up after: ${reason}`);
    this.enqueue(async () => {
      try {
        await this.poll('catch-up');
      } finally {
        this.catchingUp--;
        this.refresh();
      }
    });
  }

  /** The venue refused the stream (bad name, too many streams): REST polling from now on. */
  refused(reason: string): void {
    this.refusedReason = reason;
    this.deps.log({ level: 'warn', topic: 'stream', time: this.deps.now(), message: `${this.label}: stream refused (${reason}); polling REST klines instead` });
    this.refresh();
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.unsubscribe();
    this.out.complete();
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue
      .then(() => (this.stopped ? undefined : task()))
      .catch((err: unknown) => {
        if (this.deps.signal.aborted || this.stopped) return;
        this.deps.log({ level: 'error', topic: 'series', time: this.deps.now(), message: `${this.label}: ${err instanceof Error ? err.message : String(err)}`, detail: err });
      })
      .finally(() => this.arm());
  }

  private async take(c: Candle): Promise<void> {
    const verdict = this.seq.judge(c.openTime);
    if (verdict !== 'deliver') {
      this.drop(c, verdict, 'stream');
      return;
    }
    const from = Math.max(this.seq.last + 1, this.checkedTo);
    if (this.seq.gapBefore(c.openTime) && from < c.openTime) {
      this.deps.log({ level: 'info', topic: 'gap', time: this.deps.now(), message: `${this.label}: stream bar ${iso(c.openTime)} follows ${iso(this.seq.last)}; asking REST for the bars between` });
      for (const m of await fetchClosedBars(this.deps, this.symbol, this.interval, from, c.openTime)) this.offer(m, 'rest');
    }
    this.offer(c, 'stream');
    this.checkedTo = Math.max(this.checkedTo, c.openTime + 1);
  }

  /** Ask REST for every closed bar not yet delivered. */
  private async poll(why: string): Promise<void> {
    const now = this.deps.now();
    const current = periodOpen(this.interval, now);
    const from = Math.max(this.seq.last + 1, this.checkedTo);
    if (from >= current) return; // nothing could have closed since
    const bars = await fetchClosedBars(this.deps, this.symbol, this.interval, from, current);
    if (bars.length > 0) this.deps.log({ level: 'debug', topic: 'poll', time: this.deps.now(), message: `${this.label}: ${why}: ${bars.length} bar(s) from REST` });
    for (const b of bars) this.offer(b, 'rest');
    // Every period before `current` has closed (`fetchClosedBars` kept closed bars only, and they are all closed).
    this.checkedTo = Math.max(this.checkedTo, current);
  }

  private offer(c: Candle, source: 'stream' | 'rest'): void {
    const verdict = this.seq.judge(c.openTime);
    if (verdict !== 'deliver') {
      this.drop(c, verdict, source);
      return;
    }
    this.seq.delivered(c.openTime);
    const bar: ClosedBar = { symbol: this.symbol, interval: this.interval, candle: c, source };
    this.record(bar);
    this.recent.push(bar);
    if (this.recent.length > RECENT) this.recent.shift();
    this.health = { ...this.health, lastBarOpenTime: c.openTime };
    this.out.next(bar);
  }

  private drop(c: Candle, verdict: 'duplicate' | 'late', source: string): void {
    this.deps.log({
      level: 'info',
      topic: verdict,
      time: this.deps.now(),
      message: `${this.label}: ${source} bar ${iso(c.openTime)} dropped: ${verdict === 'duplicate' ? 'already delivered' : `a later bar (${iso(this.seq.last)}) was delivered`}`,
    });
  }

  private record(bar: ClosedBar): void {
    if (!this.deps.journal) return;
    try {
      this.deps.journal.insertKlines([journalRow(bar.symbol, bar.interval, bar.candle, `live:${bar.source}`)]);
    } catch (err) {
      this.deps.log({ level: 'error', topic: 'journal', time: this.deps.now(), message: `${this.label}: recording bar ${iso(bar.candle.openTime)} failed: ${err instanceof Error ? err.message : String(err)}`, detail: err });
    }
  }

  private get mode(): 'stream' | 'polling' {
    return this.link.state === 'LIVE' && this.refusedReason === undefined && this.catchingUp === 0 ? 'stream' : 'polling';
  }

  /** Arm the timer for the next bar due: REST is asked if it has not come by then. */
  private arm(): void {
    if (this.stopped) return;
    this.timer?.unsubscribe();
    const expected = Math.max(this.seq.next, alignUp(this.interval, this.checkedTo));
    const due = periodClose(this.interval, expected) + 1 + (this.mode === 'stream' ? this.deps.streamGraceMs : this.deps.pollDelayMs);
    this.timer = this.deps.scheduler.schedule(() => this.enqueue(() => this.poll(this.mode === 'stream' ? 'bar not streamed in time' : 'polling')), Math.max(0, due - this.deps.now()));
  }

  private refresh(note?: string): void {
    const state: MarketStreamState = this.refusedReason !== undefined ? 'DOWN' : this.link.state === 'LIVE' && this.catchingUp > 0 ? 'RESYNCING' : this.link.state;
    const reason = this.refusedReason ?? note ?? this.link.reason;
    const mode = this.mode;
    if (state === this.health.state && mode === this.health.mode) return;
    const prev = this.health;
    this.health = { state, mode, reason, since: this.deps.now(), lastBarOpenTime: prev.lastBarOpenTime };
    this.deps.log({ level: state === 'LIVE' ? 'info' : 'warn', topic: 'health', time: this.deps.now(), message: `${this.label}: ${prev.state}/${prev.mode} -> ${state}/${mode}: ${reason}` });
    this.deps.changed();
  }
}

/** The first open time at or after `t`. */
function alignUp(interval: Interval, t: number): number {
  const o = periodOpen(interval, t);
  return o === t ? t : nextOpen(interval, o);
}

function iso(t: number): string {
  return Number.isFinite(t) ? new Date(t).toISOString() : String(t);
}
