import { describe, expect, it } from 'vitest';
import { readsArgument } from './reads-argument.ts';

/* eslint-disable @typescript-eslint/no-unused-vars, prefer-rest-params */
describe('readsArgument', () => {
  it('is false only for plain parameter lists too short to name the argument', () => {
    const def = {
      method(ctx: unknown) {
        return ctx;
      },
      none() {
        return 1;
      },
    };
    expect(readsArgument(def.method, 1)).toBe(false);
    expect(readsArgument(def.none, 1)).toBe(false);
    expect(readsArgument((ctx: unknown) => ctx, 1)).toBe(false);
    expect(readsArgument(function named(ctx: unknown) {
      return ctx;
    }, 1)).toBe(false);
  });

  it('is true whenever the argument may be reached', () => {
    const cases: ((...args: never[]) => unknown)[] = [
      (ctx: unknown, bar: unknown) => bar,
      (ctx: unknown, ...rest: unknown[]) => rest,
      (ctx: unknown, bar: unknown = 1) => bar,
      (ctx: unknown = {}, bar?: unknown) => bar,
      ({ a }: { a: unknown }) => a,
      function (this: unknown, ctx: unknown) {
        return arguments[1];
      },
      function (ctx: unknown) {
        // a comment that says arguments
        return ctx;
      },
      ((ctx: unknown) => ctx).bind(null),
      // sloppy mode: another function can read its arguments through `caller`
      new Function('ctx', 'return ctx') as () => unknown,
    ];
    for (const fn of cases) expect(readsArgument(fn, 1), String(fn)).toBe(true);
  });

  it('answers for the first argument too', () => {
    expect(readsArgument(() => 1, 0)).toBe(false);
    expect(readsArgument((ctx: unknown) => ctx, 0)).toBe(true);
  });
});
