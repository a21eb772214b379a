import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AccountRegistry } from '../accounts/registry.ts';
import { ReplayGuard, replayGuardFor } from './replay-guard.ts';

describe('ReplayGuard (issue 24 defect 4)', () => {
  it('refuses an id inside its window, forgets it after, and refuses new ids when full', () => {
    const guard = new ReplayGuard(2);
    expect(guard.admit('a', 1000, 0)).toBe('fresh');
    expect(guard.admit('a', 1000, 1000)).toBe('repeated');
    expect(guard.admit('b', 5000, 1000)).toBe('fresh');
    expect(guard.admit('c', 5000, 1000)).toBe('full');
    expect(guard.admit('a', 3000, 1001)).toBe('fresh'); // a's window ended at 1000: dropped, then taken again
    expect(guard.size).toBe(2);
    expect(guard.admit('c', 6000, 5001)).toBe('fresh');
    expect(guard.size).toBe(1);
  });

  it('is one guard per sandbox (per account registry)', () => {
    const one = new AccountRegistry({ maxSubAccounts: 1 });
    expect(replayGuardFor(one)).toBe(replayGuardFor(one));
    expect(replayGuardFor(new AccountRegistry({ maxSubAccounts: 1 }))).not.toBe(replayGuardFor(one));
  });

  it('property: on a forward-running clock it answers as a model that never forgets, and holds only live ids', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('admit' as const), id: fc.integer({ min: 0, max: 12 }), life: fc.integer({ min: 0, max: 50 }) }),
      fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 30 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(op, { maxLength: 200 }), (max, ops) => {
        const guard = new ReplayGuard(max);
        const model = new Map<number, number>(); // id -> expiry, kept forever
        let now = 0;
        for (const o of ops) {
          if (o.kind === 'tick') {
            now += o.ms;
            continue;
          }
          const live = [...model].filter(([, expiry]) => expiry >= now);
          const expected = live.some(([id]) => id === o.id) ? 'repeated' : live.length >= max ? 'full' : 'fresh';
          expect(guard.admit(String(o.id), now + o.life, now)).toBe(expected);
          if (expected === 'fresh') model.set(o.id, now + o.life);
          expect(guard.size).toBe([...model.values()].filter((expiry) => expiry >= now).length);
          expect(guard.size).toBeLessThanOrEqual(max);
        }
      }),
      { numRuns: 500 },
    );
  });
});
