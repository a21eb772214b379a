import { describe, expect, it } from 'vitest';
import { FaultRegistry } from './fault-registry.ts';
import { faultSpecSchema } from './fault-schema.ts';

describe('FaultRegistry', () => {
  it('fires scoped faults only for their endpoint, and only count times', () => {
    const faults = new FaultRegistry();
    faults.add({ kind: 'error-before', endpoint: 'spot.newOrder', count: 2 });
    expect(faults.take('general.ping', ['error-before'])).toEqual([]);
    expect(faults.take('spot.newOrder', ['error-before'])).toHaveLength(1);
    expect(faults.take('spot.newOrder', ['error-after'])).toEqual([]);
    expect(faults.take('spot.newOrder', ['error-before'])[0]).toMatchObject({ fired: 2 });
    expect(faults.take('spot.newOrder', ['error-before'])).toEqual([]);
    expect(faults.list()).toEqual([]);
  });

  it('keeps unscoped, uncounted faults until removed', () => {
    const faults = new FaultRegistry();
    const f = faults.add({ kind: 'delay', delayMs: 5 });
    for (let i = 0; i < 3; i++) expect(faults.take(`x${i}`, ['delay'])).toHaveLength(1);
    expect(faults.remove(f.id)).toBe(true);
    expect(faults.take('x', ['delay'])).toEqual([]);
  });

  it('uses up only the fault that takes effect: one answer per request, the others kept for the next', () => {
    const faults = new FaultRegistry();
    const limited = faults.add({ kind: 'rate-limit', endpoint: 'spot.newOrder', count: 1 });
    const banned = faults.add({ kind: 'ban', count: 1 });
    const failing = faults.add({ kind: 'error-before', endpoint: 'spot.newOrder', count: 1 });
    const slow = faults.add({ kind: 'delay', delayMs: 5, count: 2 });
    const pre = ['delay', 'hang', 'ban', 'rate-limit', 'error-before'] as const;
    // The ban answers (it comes before a 429 and a 5xx); the delay adds to it; the 429 and the 5xx wait.
    expect(faults.take('spot.newOrder', pre).map((f) => f.id)).toEqual([banned.id, slow.id]);
    expect(faults.list().map((f) => [f.id, f.fired])).toEqual([
      [limited.id, 0],
      [failing.id, 0],
      [slow.id, 1],
    ]);
    expect(faults.take('spot.newOrder', pre).map((f) => f.id)).toEqual([limited.id, slow.id]);
    expect(faults.take('spot.newOrder', pre).map((f) => f.id)).toEqual([failing.id]);
    expect(faults.take('spot.newOrder', pre)).toEqual([]);
    // Skews add up: every one takes effect.
    faults.add({ kind: 'clock-skew', skewMs: 10, count: 1 });
    faults.add({ kind: 'clock-skew', skewMs: 20, count: 1 });
    expect(faults.take('x', ['clock-skew']).reduce((s, f) => s + (f.skewMs ?? 0), 0)).toBe(30);
    expect(faults.list()).toEqual([]);
  });

  it('validates admin input', () => {
    expect(faultSpecSchema.safeParse({ kind: 'hang', endpoint: 'spot.newOrder' }).success).toBe(true);
    expect(faultSpecSchema.safeParse({ kind: 'hang', endpoint: 'spot.nope' }).success).toBe(false);
    expect(faultSpecSchema.safeParse({ kind: 'error-before', status: 404 }).success).toBe(false);
    expect(faultSpecSchema.safeParse({ kind: 'boom' }).success).toBe(false);
  });
});
