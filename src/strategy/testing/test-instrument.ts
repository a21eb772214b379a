/**
 * Instruments for strategy tests, built through core/market's real exchangeInfo parser so the
 * rounding helpers behave exactly as in production (spec 2.2, 2.3).
 */
import { parseInstrument } from '../../core/market/instrument.ts';
import type { Instrument } from '../../core/market/instrument.ts';

export interface TestInstrumentSpec {
  readonly symbol?: string;
  readonly baseAsset?: string;
  readonly quoteAsset?: string;
  readonly tickSize?: string;
  readonly minPrice?: string;
  readonly maxPrice?: string;
  readonly stepSize?: string;
  readonly minQty?: string;
  readonly maxQty?: string;
  readonly minNotional?: string;
}

/** Quote assets a symbol's name is read as ending with, longest first (`ETHUSDT`: ETH / USDT). */
const QUOTES = ['USDT', 'USDC', 'FDUSD', 'BUSD', 'PHP', 'EUR', 'USD', 'BTC', 'ETH', 'BNB'].sort((a, b) => b.length - a.length);

/** The base and quote a symbol's name spells (`BTCUSDT` -> BTC, USDT); undefined when no known quote ends it. */
function assetsOf(symbol: string): { base: string; quote: string } | undefined {
  const quote = QUOTES.find((q) => symbol.endsWith(q) && symbol.length > q.length);
  return quote === undefined ? undefined : { base: symbol.slice(0, -quote.length), quote };
}

/**
 * BTCPHP with tick 0.01, step 0.000001, min notional 100 unless told otherwise. The assets follow
 * the symbol's name when they are not given (`ETHUSDT`: ETH and USDT, so runOnRegime funds USDT),
 * else BTC and PHP.
 */
export function testInstrument(spec: TestInstrumentSpec = {}): Instrument {
  const stepSize = spec.stepSize ?? '0.000001';
  const symbol = spec.symbol ?? 'BTCPHP';
  const named = assetsOf(symbol);
  return parseInstrument({
    symbol,
    status: 'TRADING',
    baseAsset: spec.baseAsset ?? named?.base ?? 'BTC',
    quoteAsset: spec.quoteAsset ?? named?.quote ?? 'PHP',
    baseAssetPrecision: 8,
    quoteAssetPrecision: 8,
    orderTypes: ['LIMIT', 'MARKET', 'LIMIT_MAKER', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'],
    filters: [
      { filterType: 'PRICE_FILTER', minPrice: spec.minPrice ?? '0.01', maxPrice: spec.maxPrice ?? '100000000', tickSize: spec.tickSize ?? '0.01' },
      { filterType: 'LOT_SIZE', minQty: spec.minQty ?? stepSize, maxQty: spec.maxQty ?? '100000', stepSize },
      { filterType: 'NOTIONAL', minNotional: spec.minNotional ?? '100', maxNotional: '0' },
    ],
  });
}
