/**
 * What the several-symbol backtest tests share (several-timers.test.ts, several-warmup.test.ts):
 * two symbols quoted in PHP with a tick of 0.01 and a step of 0.001 and no minimum notional, and
 * the time the bars start.
 */
import { parseInstrument } from '../../core/market/instrument.ts';

const filters = [
  { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
  { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000', stepSize: '0.001' },
];
const instrument = (symbol: string, baseAsset: string) =>
  parseInstrument({ symbol, status: 'TRADING', baseAsset, baseAssetPrecision: 8, quoteAsset: 'PHP', quoteAssetPrecision: 2, orderTypes: ['LIMIT', 'MARKET'], filters });

export const btc = instrument('BTCPHP', 'BTC');
export const eth = instrument('ETHPHP', 'ETH');
export const T0 = Date.UTC(2024, 0, 1);
export const MIN = 60_000;
