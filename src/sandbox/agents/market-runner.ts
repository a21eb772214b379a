/**
 * Plays one market's path on the sandbox clock: sleeps (clock.sleep, so a VirtualClock drives it in
 * tests and the sandbox clock's speed stretches it) until each point's time, then plays it. A step
 * that throws is logged and counted, and the next step runs as usual: the agents never take the
 * server down. When the sandbox clock jumps ahead by more than a bar the schedule re-anchors on the
 * new time instead of replaying the missed points in a burst; when it jumps back it resumes a step
 * later. At the path's end (`onEnd: hold`) the ladder stays, re-quoted once a bar.
 */
import type { Clock } from '../../ports/clock.ts';
import type { AgentEnv } from './agent-env.ts';
import type { PathPoint } from './path-source.ts';

/** What plays the points (MarketStep). */
export interface PointPlayer {
  play(point: PathPoint): void;
  quoteOnly(units: number): void;
}

export interface RunOptions {
  readonly env: AgentEnv;
  readonly step: PointPlayer;
  readonly path: Iterator<PathPoint, void, undefined>;
  readonly barMs: number;
  readonly steps: number;
  /** Start the first bar on a multiple of barMs of sandbox time. */
  readonly align: boolean;
  /**
   * The first bar's start, when history was laid out up to it (history.ts): the current bar
   * period, so points already due play at once and the live bars follow the history without a gap.
   */
  readonly startAt?: number | undefined;
}

export async function runMarket(o: RunOptions, signal: AbortSignal): Promise<void> {
  const { env } = o;
  const { clock, stats } = env;
  const stepMs = Math.max(1, Math.floor(o.barMs / o.steps));
  let next = nextPoint(o);
  let last = next.done ? undefined : next.value.units;
  if (last !== undefined) guarded(env, 'quoting', () => o.step.quoteOnly(last!));
  const now = clock.now();
  let t0 = o.startAt ?? (o.align ? Math.ceil(now / o.barMs) * o.barMs : now);
  stats.state = 'running';
  try {
    while (!next.done) {
      const point = next.value;
      t0 = await waitFor(clock, t0, point.offsetMs, o.barMs, stepMs, signal);
      guarded(env, 'a step', () => o.step.play(point));
      last = point.units;
      stats.points++;
      if (point.step === o.steps - 1) stats.bars++;
      next = nextPoint(o);
    }
    stats.state = 'holding';
    for (;;) {
      await clock.sleep(o.barMs, signal);
      if (last !== undefined) guarded(env, 'quoting', () => o.step.quoteOnly(last!));
    }
  } catch (err) {
    if (!signal.aborted) throw err;
  } finally {
    stats.state = 'stopped';
  }
}

/** The next point; a source that fails (an unreadable journal) ends the path. */
function nextPoint(o: RunOptions): IteratorResult<PathPoint, void> {
  try {
    return o.path.next();
  } catch (err) {
    record(o.env, 'reading the source', err);
    return { done: true, value: undefined };
  }
}

/** Sleep until t0 + offset; returns the (possibly re-anchored) t0. */
async function waitFor(clock: Clock, t0: number, offset: number, barMs: number, stepMs: number, signal: AbortSignal): Promise<number> {
  for (;;) {
    signal.throwIfAborted();
    const now = clock.now();
    let wait = t0 + offset - now;
    if (wait > 2 * barMs) {
      t0 = now + stepMs - offset;
      wait = stepMs;
    }
    if (wait <= 0) return wait < -barMs ? now - offset : t0;
    await clock.sleep(wait, signal);
  }
}

function guarded(env: AgentEnv, what: string, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    record(env, what, err);
  }
}

function record(env: AgentEnv, what: string, err: unknown): void {
  const { stats } = env;
  stats.errors++;
  stats.lastError = err instanceof Error ? err.message : String(err);
  // A fault that repeats every step would flood the log: the first ten, then one in a hundred.
  if (stats.errors <= 10 || stats.errors % 100 === 0) {
    env.log.warn({ err, symbol: stats.symbol, errors: stats.errors }, `market agent: ${what} failed; carrying on`);
  }
}
