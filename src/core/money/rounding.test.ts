import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { D } from './decimal.ts';
import { decimalsOf, isOnStep, roundToGrid, roundToStep, roundToTick } from './rounding.ts';
import type { RoundMode } from './rounding.ts';

/** A decimal with up to 18 places built from an integer mantissa, so values are exact. */
const decimal = (maxAbs: bigint, maxScale = 18) =>
  fc.tuple(fc.bigInt({ min: -maxAbs, max: maxAbs }), fc.integer({ min: 0, max: maxScale })).map(([m, s]) => new D(m.toString()).div(new D(10).pow(s)));
const step = fc
  .tuple(fc.integer({ min: 1, max: 999 }), fc.integer({ min: 0, max: 18 }))
  .map(([m, s]) => new D(m).div(new D(10).pow(s)));
const mode = fc.constantFrom<RoundMode>('down', 'up', 'nearest');

describe('roundToTick / roundToStep examples', () => {
  it('measures ticks from minPrice (spec 2.3)', () => {
    expect(roundToTick('0.017', '0.01', '0.005', 'down').toFixed()).toBe('0.015');
    expect(roundToTick('0.017', '0.01', '0.005', 'up').toFixed()).toBe('0.025');
    expect(roundToTick('0.017', '0.01', undefined, 'down').toFixed()).toBe('0.01');
  });
  it('nearest sends ties up and defaults for prices', () => {
    expect(roundToTick('1.005', '0.01').toFixed()).toBe('1.01');
    expect(roundToTick('1.0049', '0.01').toFixed()).toBe('1');
    expect(roundToTick('-1.005', '0.01').toFixed()).toBe('-1');
  });
  it('rounds quantities down by default', () => {
    expect(roundToStep('1.2399', '0.01').toFixed()).toBe('1.23');
    expect(roundToStep('1.2399', '0.01', '0.001').toFixed()).toBe('1.231');
  });
  it('treats a zero step as no constraint', () => {
    expect(roundToTick('1.23456', '0', '0.01', 'up').toFixed()).toBe('1.23456');
    expect(isOnStep('1.23456', 0, '0.01')).toBe(true);
  });
  it('keeps 18-decimal values exact', () => {
    const q = roundToStep('123456789012.1234567891234567899', '0.000000000000000001');
    expect(q.toFixed()).toBe('123456789012.123456789123456789');
  });
  it('accepts numbers and rejects negative steps and garbage', () => {
    expect(roundToStep(1.239, 0.01).toFixed()).toBe('1.23');
    expect(() => roundToStep('1', '-0.1')).toThrow(/step: -0.1 is negative/);
    expect(() => roundToStep('abc', '0.1')).toThrow(TypeError);
  });
  it('isOnStep', () => {
    expect(isOnStep('0.015', '0.01', '0.005')).toBe(true);
    expect(isOnStep('0.015', '0.01')).toBe(false);
    expect(isOnStep('-0.005', '0.01', '0.005')).toBe(true);
  });
  it('decimalsOf', () => {
    expect(decimalsOf('0.01')).toBe(2);
    expect(decimalsOf('0.000001')).toBe(6);
    expect(decimalsOf('0.0050')).toBe(3);
    expect(decimalsOf('1')).toBe(0);
    expect(decimalsOf('10')).toBe(0);
    expect(decimalsOf(1e-8)).toBe(8);
  });
});

describe('roundToGrid properties', () => {
  const big = 10n ** 24n;
  it('lands on the grid, within one step, idempotent', () => {
    fc.assert(
      fc.property(decimal(big), step, decimal(10n ** 6n, 6), mode, (v, s, o, m) => {
        const r = roundToGrid(v, s, o, m);
        expect(isOnStep(r, s, o)).toBe(true);
        expect(r.minus(v).abs().lt(s)).toBe(true);
        expect(roundToGrid(r, s, o, m).eq(r)).toBe(true);
      }),
    );
  });
  it('down never exceeds the input, up never goes below it', () => {
    fc.assert(
      fc.property(decimal(big), step, decimal(10n ** 6n, 6), (v, s, o) => {
        expect(roundToGrid(v, s, o, 'down').lte(v)).toBe(true);
        expect(roundToGrid(v, s, o, 'up').gte(v)).toBe(true);
      }),
    );
  });
  it('nearest is within half a step', () => {
    fc.assert(
      fc.property(decimal(big), step, (v, s) => {
        expect(roundToGrid(v, s, 0, 'nearest').minus(v).abs().lte(s.div(2))).toBe(true);
      }),
    );
  });
  it('values already on the grid are unchanged in every mode', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), step, decimal(10n ** 6n, 6), mode, (n, s, o, m) => {
        const v = o.plus(s.times(n.toString()));
        expect(roundToGrid(v, s, o, m).eq(v)).toBe(true);
      }),
    );
  });
});
