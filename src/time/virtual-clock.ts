import type { Clock } from '../ports/clock.ts';

interface Sleeper {
  wakeAt: number;
  seq: number;
  resolve: () => void;
}

/**
 * A clock that only moves when told to. `advance(ms)` wakes sleepers in time order, letting the
 * microtasks each wake-up schedules run before the next, so a 60-second rate window or a 30-minute
 * keepalive is tested in milliseconds of real time.
 */
export class VirtualClock implements Clock {
  private current: number;
  private sleepers: Sleeper[] = [];
  private seq = 0;

  constructor(start = 0) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        reject(signal?.reason);
      };
      // Remove the abort listener on a normal wake, so long-lived signals do not collect listeners.
      const sleeper: Sleeper = {
        wakeAt: this.current + Math.max(0, ms),
        seq: this.seq++,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.sleepers.push(sleeper);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Number of pending sleepers (useful to wait until callers are parked). */
  get pending(): number {
    return this.sleepers.length;
  }

  /** Move time forward by `ms`, waking every sleeper due on the way, in order. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await flushMicrotasks();
      const due = this.sleepers
        .filter((s) => s.wakeAt <= target)
        .sort((a, b) => a.wakeAt - b.wakeAt || a.seq - b.seq)[0];
      if (!due) break;
      this.sleepers = this.sleepers.filter((s) => s !== due);
      this.current = Math.max(this.current, due.wakeAt);
      due.resolve();
    }
    this.current = target;
    await flushMicrotasks();
  }

  /** Set the time directly (never backwards). */
  async set(time: number): Promise<void> {
    await this.advance(Math.max(0, time - this.current));
  }
}

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise<void>((resolve) => setImmediate(resolve));
}
