/**
 * Pool sizes per weight profile (spec 8.3-8.4, 8.15; protocol notes 7). Design rule 5: limits are
 * data, the spec's values are defaults, config overrides them.
 *
 * - `spec`: IP 1200/min (spec 8.3); UID 1800/min, the companion value the notes give (the spec
 *   leaves the UID number unpublished, 8.15).
 * - `real`: the service since 2026-03-16, IP 120/min, UID 180/min (notes 7).
 * - ORDERS: the order-rate number is unpublished in both (spec 8.15, notes 10). We default to a
 *   conservative 50 orders per 10 s, a guess well below common venue order limits; configure it.
 */
import type { PoolConfig, WeightLedgerConfig } from '../../core/risk/weight-ledger.ts';
import type { Pool, WeightProfile } from '../endpoints/types.ts';

export interface PoolLimit {
  readonly limit: number;
  readonly windowMs: number;
}

export const POOLS: readonly Pool[] = ['IP', 'UID', 'ORDERS'];

const MINUTE = 60_000;
/** Our guess for the unpublished order-rate limit; see the header. */
export const DEFAULT_ORDER_LIMIT: PoolLimit = { limit: 50, windowMs: 10_000 };

export const DEFAULT_POOLS = {
  spec: {
    IP: { limit: 1200, windowMs: MINUTE },
    UID: { limit: 1800, windowMs: MINUTE },
    ORDERS: DEFAULT_ORDER_LIMIT,
  },
  real: {
    IP: { limit: 120, windowMs: MINUTE },
    UID: { limit: 180, windowMs: MINUTE },
    ORDERS: DEFAULT_ORDER_LIMIT,
  },
} as const satisfies Record<WeightProfile, Record<Pool, PoolLimit>>;

/** The user-facing part of the config: everything optional, the profile's defaults fill the rest. */
export interface RateLimitConfig {
  readonly profile?: WeightProfile;
  readonly pools?: Partial<Record<Pool, Partial<PoolLimit>>>;
  /** consumer -> pool -> weight per window guaranteed to it (e.g. keep room for cancels). */
  readonly reservations?: Readonly<Record<string, Partial<Record<Pool, number>>>>;
}

export function buildLedgerConfig(user: RateLimitConfig = {}): WeightLedgerConfig {
  const defaults = DEFAULT_POOLS[user.profile ?? 'spec'];
  const pools: PoolConfig[] = POOLS.map((name) => ({
    name,
    limit: user.pools?.[name]?.limit ?? defaults[name].limit,
    windowMs: user.pools?.[name]?.windowMs ?? defaults[name].windowMs,
  }));
  return user.reservations ? { pools, reservations: user.reservations } : { pools };
}
