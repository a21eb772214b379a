/**
 * When the config lists no markets, every sandbox symbol gets a synthetic one, starting at the
 * reference price of its base in its quote (or the symbol's last trade, when it has one).
 */
import { D } from '../../core/money/decimal.ts';
import { REFERENCE_PHP_PRICES } from '../config/defaults.ts';
import type { SandboxSymbolConfig } from '../config/schema.ts';
import type { MarketAgentsConfig } from './config.ts';
import { marketSchema } from './config.ts';

export function withDefaultMarkets(config: MarketAgentsConfig, symbols: readonly SandboxSymbolConfig[]): MarketAgentsConfig {
  if (config.markets.length > 0) return config;
  const markets = symbols
    .filter((s) => s.status === 'TRADING')
    .map((s) => {
      const start = referencePrice(s.baseAsset, s.quoteAsset);
      return marketSchema.parse({ symbol: s.symbol, source: { type: 'synthetic', ...(start ? { startPrice: start } : {}) } });
    });
  return { ...config, markets };
}

function referencePrice(base: string, quote: string): string | undefined {
  const b = REFERENCE_PHP_PRICES[base];
  const q = REFERENCE_PHP_PRICES[quote];
  if (b === undefined || q === undefined) return undefined;
  return new D(b).div(q).toSignificantDigits(6).toFixed();
}
