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

/** BTCPHP with tick 0.01, step 0.000001, min notional 100 unless told otherwise. */
export function testInstrument(spec: TestInstrumentSpec = {}): Instrument {
  const stepSize = spec.stepSize ?? '0.000001';
  return parseInstrument({
    symbol: spec.symbol ?? 'BTCPHP',
    status: 'TRADING',
    baseAsset: spec.baseAsset ?? 'BTC',
    quoteAsset: spec.quoteAsset ?? 'PHP',
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
