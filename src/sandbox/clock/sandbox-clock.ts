/**
 * The sandbox's own time: the injected base Clock (system time, or a VirtualClock in tests)
 * shifted by an offset and run at a speed. Server time, timestamps checks (spec 5.3), listen-key
 * lifetimes (spec 8.12) and order times all read it, so the admin API can jump or stretch time.
 *
 *   now = anchorSandbox + (base.now() - anchorBase) * speed
 *
 * Changing the speed re-anchors at the current instant, so time never jumps when speed changes.
 * Speed 0 freezes time. `sleep` waits sandbox milliseconds (scaled by speed on the base clock).
 */
import type { Clock } from '../../ports/clock.ts';

export class SandboxClock implements Clock {
  private anchorBase: number;
  private anchorSandbox: number;
  private currentSpeed: number;

  constructor(
    readonly base: Clock,
    options: { speed?: number; startTime?: number | undefined } = {},
  ) {
    this.anchorBase = base.now();
    this.anchorSandbox = options.startTime ?? this.anchorBase;
    this.currentSpeed = checkSpeed(options.speed ?? 1);
  }

  now(): number {
    return Math.floor(this.anchorSandbox + (this.base.now() - this.anchorBase) * this.currentSpeed);
  }

  get speed(): number {
    return this.currentSpeed;
  }

  /** Sandbox time minus base time: how far the sandbox runs ahead of (or behind) its base clock. */
  get offsetMs(): number {
    return this.now() - this.base.now();
  }

  /** Jump to `time` (may go backwards: admins simulate clock faults with it). */
  setTime(time: number): void {
    this.anchorBase = this.base.now();
    this.anchorSandbox = time;
  }

  /** Jump forward (or back, when negative) by `ms`. */
  advance(ms: number): void {
    this.setTime(this.now() + ms);
  }

  setSpeed(speed: number): void {
    const now = this.now();
    this.currentSpeed = checkSpeed(speed);
    this.setTime(now);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.currentSpeed === 0) return this.base.sleep(Number.MAX_SAFE_INTEGER, signal);
    return this.base.sleep(Math.max(0, ms) / this.currentSpeed, signal);
  }
}

function checkSpeed(speed: number): number {
  if (!Number.isFinite(speed) || speed < 0) throw new RangeError(`clock speed must be a finite number >= 0, got ${speed}`);
  return speed;
}
