import { describe, expect, it } from 'vitest';
import { D } from '../../core/money/decimal.ts';
import { runMarket, type PointPlayer } from './market-runner.ts';
import type { PathPoint } from './path-source.ts';
import { agentRig } from './test-support.ts';

const BAR = 1000;
const STEPS = 4;

function points(bars: number): PathPoint[] {
  return Array.from({ length: bars * STEPS }, (_, i) => ({
    bar: Math.floor(i / STEPS),
    step: i % STEPS,
    offsetMs: Math.floor(i / STEPS) * BAR + (i % STEPS) * (BAR / STEPS),
    units: 100_000 + i,
    price: String(1000 + i / 100),
    volume: new D(1),
  }));
}

function start(bars: number, opts: { align?: boolean; fail?: (p: PathPoint) => boolean; clockStart?: number } = {}) {
  const r = agentRig(opts.clockStart ?? 10_250);
  const played: [number, number][] = [];
  const quoted: number[] = [];
  const player: PointPlayer = {
    play(p) {
      if (opts.fail?.(p)) throw new Error(`boom at ${p.units}`);
      played.push([p.units - 100_000, r.sandboxClock.now()]);
    },
    quoteOnly: (u) => quoted.push(u),
  };
  const controller = new AbortController();
  const done = runMarket({ env: r.env, step: player, path: points(bars)[Symbol.iterator](), barMs: BAR, steps: STEPS, align: opts.align ?? true }, controller.signal);
  return { ...r, played, quoted, stop: async () => (controller.abort(), await done) };
}

describe('runMarket', () => {
  it('quotes at once, then plays each point at its time from the next bar boundary', async () => {
    const m = start(2);
    expect(m.quoted).toEqual([100_000]);
    await m.clock.advance(3000);
    expect(m.played).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i, 11_000 + i * 250]));
    // Sandbox time equals the virtual time here: the sandbox clock starts on it at speed 1.
    expect(m.stats).toMatchObject({ state: 'holding', bars: 2, points: 8 });
    await m.clock.advance(2000);
    expect(m.quoted).toEqual([100_000, 100_007, 100_007]);
    await m.stop();
    expect(m.stats.state).toBe('stopped');
    expect(m.clock.pending).toBe(0);
  });

  it('starts right away without alignment', async () => {
    const m = start(1, { align: false });
    await m.clock.advance(0);
    expect(m.played).toEqual([[0, 10_250]]);
    await m.stop();
  });

  it('counts a failing step and carries on with the next', async () => {
    const m = start(2, { fail: (p) => p.units === 100_002 || p.units === 100_003 });
    await m.clock.advance(3000);
    expect(m.played.map(([i]) => i)).toEqual([0, 1, 4, 5, 6, 7]);
    expect(m.stats).toMatchObject({ errors: 2, lastError: 'boom at 100003', points: 8 });
    await m.stop();
  });

  it('re-anchors after the sandbox clock jumps ahead, instead of replaying in a burst', async () => {
    const m = start(3);
    await m.clock.advance(1000); // plays points 0 and 1 (11 000, 11 250)
    expect(m.played.map(([i]) => i)).toEqual([0, 1]);
    m.sandboxClock.advance(60_000);
    await m.clock.advance(250);
    // Point 2 plays when its wait ends (now a minute late), the rest follow on the new schedule, one step apart.
    expect(m.played.slice(2)).toEqual([[2, 71_500]]);
    await m.clock.advance(3000);
    expect(m.played.slice(2).map(([i, t]) => t - (i - 2) * 250)).toEqual(Array(10).fill(71_500));
    await m.stop();
  });

  it('resumes a step later when the sandbox clock goes back', async () => {
    const m = start(3);
    await m.clock.advance(1000);
    m.sandboxClock.advance(-30_000);
    await m.clock.advance(1000);
    // Point 2's sleep ends at -18 500 (sandbox time), 30 s before its slot: it re-anchors one step later.
    const t = m.played.map(([, x]) => x);
    expect(t).toEqual([11_000, 11_250, -18_250, -18_000, -17_750]);
    await m.stop();
  });

  it('stops promptly when aborted while waiting', async () => {
    const m = start(100);
    await m.clock.advance(1500);
    await m.stop();
    const n = m.played.length;
    await m.clock.advance(5000);
    expect(m.played.length).toBe(n);
    expect(m.clock.pending).toBe(0);
  });
});
