/**
 * Builds the exchangeInfo body (spec 2.2) from the sandbox config: `timezone`, `serverTime`,
 * an empty `exchangeFilters` (spec: there are none), and one symbol object per configured symbol
 * with its filters (spec 2.3). Fees are the sandbox's own data and are not part of this body.
 *
 * Under the `numbersAsStrings` variant (protocol notes 5.2) serverTime, the precisions and the
 * filter counts are written as strings, as the real service does.
 */
import type { SandboxConfig, SandboxSymbolConfig } from './schema.ts';
import { COUNT_FIELDS } from './filters.ts';

export interface ExchangeInfoBody {
  timezone: string;
  serverTime: number | string;
  exchangeFilters: unknown[];
  symbols: Record<string, unknown>[];
}

export function exchangeInfoFromConfig(
  config: Pick<SandboxConfig, 'timezone' | 'symbols' | 'variants'>,
  serverTime: number,
  only?: readonly SandboxSymbolConfig[],
): ExchangeInfoBody {
  const asText = config.variants.numbersAsStrings;
  const num = (n: number): number | string => (asText ? String(n) : n);
  return {
    timezone: config.timezone,
    serverTime: num(Math.trunc(serverTime)),
    exchangeFilters: [],
    symbols: (only ?? config.symbols).map((s) => ({
      symbol: s.symbol,
      status: s.status,
      baseAsset: s.baseAsset,
      baseAssetPrecision: num(s.baseAssetPrecision),
      quoteAsset: s.quoteAsset,
      quoteAssetPrecision: num(s.quoteAssetPrecision),
      orderTypes: [...s.orderTypes],
      filters: s.filters.map((f) => {
        const out: Record<string, unknown> = { ...f };
        for (const field of COUNT_FIELDS) {
          const v = out[field];
          if (typeof v === 'number') out[field] = num(v);
        }
        return out;
      }),
    })),
  };
}

/** The configured symbol by name, case-insensitively (spec 4.4 avgPrice: symbols are case-insensitive). */
export function findSymbolConfig(config: Pick<SandboxConfig, 'symbols'>, symbol: string): SandboxSymbolConfig | undefined {
  const upper = symbol.toUpperCase();
  return config.symbols.find((s) => s.symbol === upper);
}
