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

  it('validates admin input', () => {
    expect(faultSpecSchema.safeParse({ kind: 'hang', endpoint: 'spot.newOrder' }).success).toBe(true);
    expect(faultSpecSchema.safeParse({ kind: 'hang', endpoint: 'spot.nope' }).success).toBe(false);
    expect(faultSpecSchema.safeParse({ kind: 'error-before', status: 404 }).success).toBe(false);
    expect(faultSpecSchema.safeParse({ kind: 'boom' }).success).toBe(false);
  });
});
