/**
 * Spec 2.10 supported convert pairs, derived from the sandbox's symbols: every TRADING symbol
 * gives two pairs, base -> quote and quote -> base. Source-amount bounds come from the symbol's
 * filters (selling the base: LOT_SIZE minQty..maxQty; spending the quote: NOTIONAL
 * minNotional..maxNotional, or MIN_NOTIONAL with no upper bound of its own); `precision` is the
 * source asset's precision on that symbol. The first symbol that yields a pair wins.
 */
import type { SandboxConfig, SandboxSymbolConfig } from '../../config/schema.ts';

export interface ConvertPair {
  sourceCurrency: string;
  targetCurrency: string;
  minSourceAmount: string;
  maxSourceAmount: string;
  /** Decimal places of the source amount. */
  sourcePrecision: number;
  /** Decimal places of the target amount. */
  targetPrecision: number;
  /** The symbol priced for it, and whether source is its base asset. */
  symbol: string;
  sourceIsBase: boolean;
}

/** Upper bound of a quote-side source when the symbol has no NOTIONAL filter. */
const DEFAULT_MAX_QUOTE_SOURCE = '10000000';

function bounds(s: SandboxSymbolConfig, sourceIsBase: boolean): { min: string; max: string } {
  if (sourceIsBase) {
    const lot = s.filters.find((f) => f.filterType === 'LOT_SIZE');
    return lot ? { min: lot.minQty, max: lot.maxQty } : { min: '0', max: DEFAULT_MAX_QUOTE_SOURCE };
  }
  const notional = s.filters.find((f) => f.filterType === 'NOTIONAL');
  if (notional) return { min: notional.minNotional, max: notional.maxNotional };
  const minNotional = s.filters.find((f) => f.filterType === 'MIN_NOTIONAL');
  return { min: minNotional?.minNotional ?? '0', max: DEFAULT_MAX_QUOTE_SOURCE };
}

export function convertPairs(config: Pick<SandboxConfig, 'symbols'>): ConvertPair[] {
  const out = new Map<string, ConvertPair>();
  for (const s of config.symbols) {
    if (s.status !== 'TRADING') continue;
    for (const sourceIsBase of [true, false]) {
      const source = sourceIsBase ? s.baseAsset : s.quoteAsset;
      const target = sourceIsBase ? s.quoteAsset : s.baseAsset;
      const key = `${source}/${target}`;
      if (out.has(key)) continue;
      const b = bounds(s, sourceIsBase);
      out.set(key, {
        sourceCurrency: source,
        targetCurrency: target,
        minSourceAmount: b.min,
        maxSourceAmount: b.max,
        sourcePrecision: sourceIsBase ? s.baseAssetPrecision : s.quoteAssetPrecision,
        targetPrecision: sourceIsBase ? s.quoteAssetPrecision : s.baseAssetPrecision,
        symbol: s.symbol,
        sourceIsBase,
      });
    }
  }
  return [...out.values()];
}

export function findPair(pairs: readonly ConvertPair[], source: string, target: string): ConvertPair | undefined {
  const s = source.toUpperCase();
  const t = target.toUpperCase();
  return pairs.find((p) => p.sourceCurrency === s && p.targetCurrency === t);
}
