/**
 * Virtual time for stream tests whose sockets are real (loopback to the sandbox or a raw `ws`
 * server): an RxJS VirtualTimeScheduler moved one due timer at a time, with real I/O let through
 * between timers, so a ping sent at minute 3 can be answered before the check at minute 3.5 runs.
 * A test waits for what the wire must bring (a pong, a reconnect) with `until`, never with sleeps.
 */
import { VirtualTimeScheduler, firstValueFrom, filter, timeout, type Observable } from 'rxjs';

export class VirtualTime {
  readonly scheduler = new VirtualTimeScheduler();

  constructor(start = 0) {
    this.scheduler.frame = start;
  }

  now(): number {
    return this.scheduler.now();
  }

  /** Run every timer due within `ms`, in time order, letting I/O run after each; then stand at now + ms. */
  async advance(ms: number): Promise<void> {
    const target = this.scheduler.frame + ms;
    for (;;) {
      const next = this.scheduler.actions[0];
      if (!next || (next.delay ?? Infinity) > target) break;
      this.scheduler.maxFrames = next.delay ?? target;
      this.scheduler.flush();
      await settle();
    }
    this.scheduler.maxFrames = Infinity;
    this.scheduler.frame = target;
    await settle();
  }
}

/** A few turns of the event loop: loopback I/O that is already under way completes. */
export async function settle(turns = 3): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** The first value of `source` matching `pred`, within `wallMs` of real time (the wire is real). */
export function until<T>(source: Observable<T>, pred: (v: T) => boolean, wallMs = 3000): Promise<T> {
  return firstValueFrom(source.pipe(filter(pred), timeout({ first: wallMs })));
}
