/**
 * One virtual time for the sandbox and the bot (issue 22 deliverable 1: "on the sandbox's
 * accelerated clock"). The sandbox runs on a VirtualClock base at `speed` (its SandboxClock: venue
 * time = start + (base - start) * speed), the bot's timers on an RxJS VirtualTimeScheduler whose
 * time is the base's: `advance` moves both by the same base ms in small steps, waking the market
 * agents and the client's sleeps (sandbox clock) and the bot's timers (scheduler) in between, with
 * real loopback I/O let through after each. Speed above 1 is also what makes the bot stamp its
 * requests and count its weight budget on the sandbox's clock (src/bot/run-bot.ts: `fast`), as
 * `halyard start --speed N` does; on the wall clock its timestamps would fall out of recvWindow as
 * the virtual clock ran ahead.
 */
import { VirtualTime } from '../../exchange/ws/testing/virtual-time.ts';
import { VirtualClock } from '../../time/virtual-clock.ts';

export class TimeDriver {
  readonly base: VirtualClock;
  readonly vt: VirtualTime;

  constructor(
    start: number,
    /** Sandbox ms per base ms. */
    readonly speed: number,
  ) {
    if (!(speed > 1)) throw new RangeError(`speed must be above 1 (the bot then stamps requests on the sandbox clock), got ${speed}`);
    this.base = new VirtualClock(start);
    this.vt = new VirtualTime(start);
  }

  /** Move by `sandboxMs` of sandbox time (base ms = sandboxMs / speed), the sandbox clock first. */
  async advance(sandboxMs: number): Promise<void> {
    const ms = Math.max(1, Math.round(sandboxMs / this.speed));
    await this.base.advance(ms);
    await this.vt.advance(ms);
  }

  /** Base (scheduler) ms for a span of sandbox ms: the bot's stream timings are on the scheduler. */
  baseMs(sandboxMs: number): number {
    return Math.max(1, Math.round(sandboxMs / this.speed));
  }
}
