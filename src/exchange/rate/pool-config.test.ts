import { describe, expect, it } from 'vitest';
import { buildLedgerConfig, DEFAULT_POOLS } from './pool-config.ts';
import { WeightLedger } from '../../core/risk/weight-ledger.ts';

describe('buildLedgerConfig', () => {
  it('defaults to the spec profile', () => {
    expect(buildLedgerConfig()).toEqual({
      pools: [
        { name: 'IP', limit: 1200, windowMs: 60_000 },
        { name: 'UID', limit: 1800, windowMs: 60_000 },
        { name: 'ORDERS', limit: 50, windowMs: 10_000 },
      ],
    });
  });

  it('uses the real service sizes under the real profile', () => {
    const { pools } = buildLedgerConfig({ profile: 'real' });
    expect(pools.map((p) => [p.name, p.limit, p.windowMs])).toEqual([
      ['IP', 120, 60_000],
      ['UID', 180, 60_000],
      ['ORDERS', DEFAULT_POOLS.real.ORDERS.limit, DEFAULT_POOLS.real.ORDERS.windowMs],
    ]);
  });

  it('fills a partial user config from the profile and keeps reservations', () => {
    const cfg = buildLedgerConfig({
      profile: 'real',
      pools: { ORDERS: { limit: 10 }, IP: { windowMs: 1_000 } },
      reservations: { cancels: { ORDERS: 2 } },
    });
    expect(cfg.pools).toContainEqual({ name: 'ORDERS', limit: 10, windowMs: 10_000 });
    expect(cfg.pools).toContainEqual({ name: 'IP', limit: 120, windowMs: 1_000 });
    expect(cfg.reservations).toEqual({ cancels: { ORDERS: 2 } });
    expect(new WeightLedger(cfg).capacity('ORDERS', 0)).toBe(8);
  });
});
