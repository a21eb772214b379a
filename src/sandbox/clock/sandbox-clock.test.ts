import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../time/virtual-clock.ts';
import { SandboxClock } from './sandbox-clock.ts';

describe('SandboxClock', () => {
  it('follows its base clock at speed 1', async () => {
    const base = new VirtualClock(1_000);
    const clock = new SandboxClock(base);
    await base.advance(500);
    expect(clock.now()).toBe(1_500);
  });

  it('starts at a configured time and keeps the offset', async () => {
    const base = new VirtualClock(1_000);
    const clock = new SandboxClock(base, { startTime: 1_538_323_200_000 });
    await base.advance(10);
    expect(clock.now()).toBe(1_538_323_200_010);
    expect(clock.offsetMs).toBe(1_538_323_200_000 - 1_000);
  });

  it('jumps, and changes speed without a jump', async () => {
    const base = new VirtualClock(0);
    const clock = new SandboxClock(base);
    clock.advance(3_600_000);
    expect(clock.now()).toBe(3_600_000);
    await base.advance(100);
    clock.setSpeed(10);
    expect(clock.now()).toBe(3_600_100);
    await base.advance(100);
    expect(clock.now()).toBe(3_601_100);
    clock.setSpeed(0);
    await base.advance(1_000);
    expect(clock.now()).toBe(3_601_100);
    clock.setTime(5);
    expect(clock.now()).toBe(5);
  });

  it('sleeps sandbox milliseconds', async () => {
    const base = new VirtualClock(0);
    const clock = new SandboxClock(base, { speed: 4 });
    let woke = false;
    void clock.sleep(4_000).then(() => (woke = true));
    await base.advance(999);
    expect(woke).toBe(false);
    await base.advance(1);
    expect(woke).toBe(true);
  });

  it('refuses a negative speed', () => {
    expect(() => new SandboxClock(new VirtualClock(0), { speed: -1 })).toThrow(RangeError);
  });
});
