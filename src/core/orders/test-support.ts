/**
 * Builders for the core/orders tests: an instrument with simple numbers (the matching tests'
 * BTCPHP: tick 0.01, step 0.001, min notional 1, at most 3 open orders and 1 untriggered stop)
 * and an order manager on a settable clock. Not part of the public surface.
 */
import { parseInstrument } from '../market/instrument.ts';
import type { Instrument } from '../market/instrument.ts';
import { OrderManager } from './order-manager.ts';
import type { OrderManagerOptions } from './order-manager.ts';

export function instrument(over: { status?: string; filters?: Record<string, unknown>[] } = {}): Instrument {
  return parseInstrument({
    symbol: 'BTCPHP',
    status: over.status ?? 'TRADING',
    baseAsset: 'BTC',
    baseAssetPrecision: 8,
    quoteAsset: 'PHP',
    quoteAssetPrecision: 2,
    orderTypes: ['LIMIT', 'MARKET', 'LIMIT_MAKER', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'],
    filters: over.filters ?? [
      { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
      { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000', stepSize: '0.001' },
      { filterType: 'NOTIONAL', minNotional: '1', maxNotional: '10000000' },
      { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 3 },
      { filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 1 },
    ],
  });
}

export function manager(opts: Partial<OrderManagerOptions> = {}): { om: OrderManager; clock: { t: number } } {
  const clock = { t: 1000 };
  const om = new OrderManager({ runId: 'test', now: () => clock.t, instruments: [instrument()], balances: { PHP: '10000', BTC: '1' }, ...opts });
  return { om, clock };
}
