/**
 * A client's clock for end-to-end tests on a VirtualClock shared with the sandbox: it counts who
 * sleeps on it, so a test moves virtual time on only while the code under test waits (a poll, a
 * settle wait), never while a request is on its way; `drive` does that until a promise settles.
 */
import type { Clock } from '../../src/ports/clock.ts';
import type { VirtualClock } from '../../src/time/virtual-clock.ts';

export class TrackedClock implements Clock {
  sleeping = 0;
  constructor(readonly inner: VirtualClock) {}
  now(): number {
    return this.inner.now();
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeping++;
    try {
      await this.inner.sleep(ms, signal);
    } finally {
      this.sleeping--;
    }
  }
}

/** Runs `p`, moving `tracked`'s virtual time on by `stepMs` whenever something sleeps on it; fails after `wallMs` of real time. */
export async function drive<T>(tracked: TrackedClock, p: Promise<T>, stepMs = 1000, wallMs = 20_000): Promise<T> {
  let settled = false;
  p.then(
    () => (settled = true),
    () => (settled = true),
  );
  const end = performance.now() + wallMs;
  while (!settled) {
    await new Promise((r) => setTimeout(r, 2));
    if (tracked.sleeping > 0) await tracked.inner.advance(stepMs);
    if (performance.now() > end) throw new Error(`drive: not settled within ${wallMs} ms of wall time`);
  }
  return p;
}
