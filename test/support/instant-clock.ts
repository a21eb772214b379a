import type { Clock } from '../../src/ports/clock.ts';

/**
 * A clock whose sleeps return at once but move its time forward, recording each wait. For tests
 * that mix real loopback I/O with waits that would otherwise take seconds of wall time.
 */
export class InstantClock implements Clock {
  readonly sleeps: number[] = [];
  private offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.offset += Math.max(0, ms);
  }
  get slept(): number {
    return this.sleeps.reduce((a, b) => a + b, 0);
  }
}
