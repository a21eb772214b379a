/** Builders for the market agents' unit tests. Not part of the public surface. */
import { parseInstrument, type Instrument } from '../../core/market/index.ts';
import { harness, instrument as matchingInstrument } from '../../core/matching/test-support.ts';
import { createLogger } from '../../log/logger.ts';
import { VirtualClock } from '../../time/virtual-clock.ts';
import { SandboxClock } from '../clock/sandbox-clock.ts';
import type { AgentEnv, MarketStats } from './agent-env.ts';
import { Funding } from './funding.ts';
import { MarketRules } from './market-rules.ts';

export interface SymbolSpec {
  symbol?: string;
  tickSize?: string;
  minPrice?: string;
  maxPrice?: string;
  stepSize?: string;
  minQty?: string;
  maxQty?: string;
  minNotional?: string;
  maxNotional?: string;
}

/** ETHUSDT-like: tick 0.01, step 0.0001, notional 1..500000, unless told otherwise. */
export function instrument(spec: SymbolSpec = {}): Instrument {
  return parseInstrument({
    symbol: spec.symbol ?? 'ETHUSDT',
    status: 'TRADING',
    baseAsset: 'ETH',
    quoteAsset: 'USDT',
    baseAssetPrecision: 8,
    quoteAssetPrecision: 2,
    filters: [
      { filterType: 'PRICE_FILTER', minPrice: spec.minPrice ?? spec.tickSize ?? '0.01', maxPrice: spec.maxPrice ?? '100000', tickSize: spec.tickSize ?? '0.01' },
      { filterType: 'LOT_SIZE', minQty: spec.minQty ?? '0.0001', maxQty: spec.maxQty ?? '1000', stepSize: spec.stepSize ?? '0.0001' },
      { filterType: 'NOTIONAL', minNotional: spec.minNotional ?? '1', maxNotional: spec.maxNotional ?? '500000' },
    ],
  });
}

export const rulesOf = (spec: SymbolSpec = {}): MarketRules => new MarketRules(instrument(spec));

/** A BTCPHP engine (tick 0.01, step 0.001) with the agents' environment around it, on a VirtualClock. */
export function agentRig(clockStart = 1_000_000) {
  const h = harness({ fund: { bot: { BTC: '100', PHP: '10000000' } } });
  const clock = new VirtualClock(clockStart);
  // The agents run on a sandbox clock over the virtual one, as in the server: tests can jump it.
  const sandboxClock = new SandboxClock(clock);
  const rules = new MarketRules(matchingInstrument());
  const stats: MarketStats = { symbol: 'BTCPHP', source: 'test', state: 'starting', bars: 0, points: 0, orders: 0, rejections: 0, trades: 0, errors: 0, lastError: undefined, price: undefined };
  const env: AgentEnv = { engine: h.engine, clock: sandboxClock, funding: new Funding(h.balances), rules, log: createLogger({ level: 'silent' }), stats };
  return { ...h, clock, sandboxClock, rules, stats, env };
}
