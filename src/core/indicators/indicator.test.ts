import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Adx } from './adx.ts';
import { Atr } from './atr.ts';
import { Bollinger } from './bollinger.ts';
import type { Hlc } from './candle.ts';
import { Ema } from './ema.ts';
import { Highest, Lowest } from './extremes.ts';
import type { Indicator } from './indicator.ts';
import { Macd } from './macd.ts';
import { Rsi } from './rsi.ts';
import { Sma } from './sma.ts';
import { StdDev } from './stddev.ts';
import { Stochastic } from './stochastic.ts';
import { Vwap } from './vwap.ts';
import type { Hlcv } from './vwap.ts';

const bar = fc
  .tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 3 }))
  .map(([low, up, at, volume]): Hlcv => ({ low, high: low + up, close: low + Math.min(at, up), volume }));

/** Every indicator, made fresh, fed bars (the number ones their close). */
const makers: Record<string, () => Indicator<Hlcv, unknown>> = {
  sma: () => ofClose(new Sma(3)),
  ema: () => ofClose(new Ema(3)),
  rsi: () => ofClose(new Rsi(3)),
  stddev: () => ofClose(new StdDev(3)),
  highest: () => ofClose(new Highest(3)),
  lowest: () => ofClose(new Lowest(3)),
  bollinger: () => ofClose(new Bollinger(3, 2)),
  macd: () => ofClose(new Macd(2, 4, 2)),
  atr: () => new Atr(3) as Indicator<Hlc>,
  stochastic: () => new Stochastic(3, 2, 2),
  adx: () => new Adx(3),
  vwap: () => new Vwap(3),
};

function ofClose<Out>(ind: Indicator<number, Out>): Indicator<Hlcv, Out> {
  return {
    update: (b) => ind.update(b.close),
    get value() {
      return ind.value;
    },
    get ready() {
      return ind.ready;
    },
    reset: () => ind.reset(),
  };
}

describe('the indicator base (BaseIndicator, SteppedIndicator)', () => {
  it('value and ready follow the last output; after reset an indicator answers as a fresh one', () => {
    fc.assert(
      fc.property(fc.array(bar, { maxLength: 30 }), fc.array(bar, { maxLength: 30 }), (first, second) => {
        for (const [name, make] of Object.entries(makers)) {
          const used = make();
          for (const b of first) {
            const out = used.update(b);
            expect(used.value, name).toEqual(out);
            expect(used.ready, name).toBe(out !== undefined);
          }
          used.reset();
          expect([used.value, used.ready], name).toEqual([undefined, false]);
          const fresh = make();
          for (const b of second) expect(used.update(b), name).toEqual(fresh.update(b));
        }
      }),
      { numRuns: 150 },
    );
  });
});
