import { describe, expect, it } from 'vitest';
import { KILL_POINTS, parseKillAt } from '../../live/kill-points.ts';
import { planKills } from './kill-plan.ts';

describe('kill plan', () => {
  it('is the same for the same seed, differs for another, and only draws the points given', () => {
    const a = planKills('7', 20);
    expect(planKills('7', 20)).toEqual(a);
    expect(planKills('8', 20)).not.toEqual(a);
    expect(new Set(a.map((k) => k.point)).size).toBeGreaterThan(2);
    for (const k of a) expect(KILL_POINTS).toContain(k.point);
    expect(a.filter((k) => k.point === 'mid-reconcile').every((k) => k.occurrence === 1)).toBe(true);
    // A fill journaled and not yet told is one of the points drawn by default (bot/fill-tells.ts tells it at the restart).
    expect(new Set(planKills('7', 60).map((k) => k.point))).toEqual(new Set(KILL_POINTS));
    expect(KILL_POINTS).toContain('fill-journaled-untold');
    expect(new Set(planKills('7', 10, ['mid-resync']).map((k) => k.point))).toEqual(new Set(['mid-resync']));
    expect(() => planKills('7', -1)).toThrow(/kills: expected an integer >= 0/);
  });

  it('HALYARD_KILL_AT is <point>:<n>; anything else is refused with the reason', () => {
    expect(parseKillAt('mid-resync:2')).toEqual({ point: 'mid-resync', occurrence: 2 });
    expect(() => parseKillAt('mid-resync')).toThrow(/HALYARD_KILL_AT="mid-resync": expected <point>:<n>/);
    expect(() => parseKillAt('nowhere:1')).toThrow(/point one of journaled-unsent/);
    expect(() => parseKillAt('mid-resync:0')).toThrow(/n >= 1/);
  });
});
