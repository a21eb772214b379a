/** Rate-limit settings from the sandbox config: pool sizes per weight profile (spec 8.3, notes 7). */
import { buildLedgerConfig } from '../../exchange/rate/pool-config.ts';
import type { PoolName } from '../../core/risk/weight-ledger.ts';
import type { PoolLimit } from '../../exchange/rate/pool-config.ts';
import type { SandboxConfig } from '../config/schema.ts';
import type { RateLimitSettings } from './rate-limiter.ts';

export function rateLimitSettings(config: SandboxConfig['rateLimits']): RateLimitSettings {
  const ledger = buildLedgerConfig({ profile: config.weightProfile, pools: config.pools });
  const pools = Object.fromEntries(ledger.pools.map((p) => [p.name, { limit: p.limit, windowMs: p.windowMs }])) as Record<PoolName, PoolLimit>;
  return {
    pools,
    strikesBeforeBan: config.strikesBeforeBan,
    strikeGraceMs: config.strikeGraceMs,
    banScheduleMs: config.banScheduleMs,
    offenceMemoryMs: config.offenceMemoryMs,
  };
}
