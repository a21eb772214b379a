import { describe, expect, it } from 'vitest';
import { chargesFor } from './weights.ts';
import { ping } from '../endpoints/areas/general.ts';

describe('chargesFor', () => {
  it('charges a bare number to the IP pool', () => {
    expect(chargesFor(ping, {}, 'spec')).toEqual([{ pool: 'IP', weight: 1 }]);
    expect(chargesFor({ weight: 10 }, {}, 'real')).toEqual([{ pool: 'IP', weight: 10 }]);
  });

  it('uses weightReal under the real profile, the spec weight otherwise', () => {
    const def = { weight: 1, weightReal: [{ pool: 'IP', weight: 60 }, { pool: 'UID', weight: 30 }] } as const;
    expect(chargesFor(def, {}, 'spec')).toEqual([{ pool: 'IP', weight: 1 }]);
    expect(chargesFor(def, {}, 'real')).toEqual([
      { pool: 'IP', weight: 60 },
      { pool: 'UID', weight: 30 },
    ]);
  });

  it('computes a charge from the parameters', () => {
    const def = { weight: (p: Readonly<Record<string, unknown>>) => [{ pool: 'IP' as const, weight: p['symbol'] ? 3 : 40 }] };
    expect(chargesFor(def, { symbol: 'BTCPHP' }, 'spec')).toEqual([{ pool: 'IP', weight: 3 }]);
    expect(chargesFor(def, {}, 'spec')).toEqual([{ pool: 'IP', weight: 40 }]);
  });

  it('adds one to the order-rate pool for order-placing calls', () => {
    expect(chargesFor({ weight: 1, countsAsOrder: true }, {}, 'spec')).toEqual([
      { pool: 'IP', weight: 1 },
      { pool: 'ORDERS', weight: 1 },
    ]);
  });

  it('merges repeated pools, drops zero weights and refuses bad ones', () => {
    const def = { weight: [{ pool: 'UID', weight: 2 }, { pool: 'IP', weight: 0 }, { pool: 'UID', weight: 3 }] } as const;
    expect(chargesFor(def, {}, 'spec')).toEqual([{ pool: 'UID', weight: 5 }]);
    expect(() => chargesFor({ weight: -1 }, {}, 'spec')).toThrow(RangeError);
    expect(() => chargesFor({ weight: Number.NaN }, {}, 'spec')).toThrow(RangeError);
  });
});
