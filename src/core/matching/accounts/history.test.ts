import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { History } from './history.ts';

describe('History', () => {
  it('behaves as an array trimmed from the front (property)', () => {
    const op = fc.oneof(fc.record({ push: fc.integer({ min: 1, max: 40 }) }), fc.record({ keep: fc.integer({ min: 0, max: 60 }) }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const h = new History<number>();
        let model: number[] = [];
        let next = 0;
        for (const o of ops) {
          if ('push' in o) {
            for (let i = 0; i < o.push; i++) {
              h.push(next);
              model.push(next++);
            }
          } else {
            const gone: number[] = [];
            h.trimTo(o.keep, (x) => gone.push(x));
            const cut = Math.max(0, model.length - o.keep);
            expect(gone).toEqual(model.slice(0, cut));
            model = model.slice(cut);
          }
          expect(h.length).toBe(model.length);
          expect(h.toArray()).toEqual(model);
          expect([...h]).toEqual(model);
        }
      }),
    );
  });
});
