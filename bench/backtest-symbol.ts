/**
 * The backtest suites' symbol (backtest.bench.ts, backtest-command.bench.ts) as an exchangeInfo
 * symbol object (spec 2.2/2.3): one copy, so the in-process simulation and the whole command are
 * measured on the same rules.
 */
export const BENCH_SYMBOL = {
  symbol: 'BTCPHP',
  status: 'TRADING',
  baseAsset: 'BTC',
  baseAssetPrecision: 8,
  quoteAsset: 'PHP',
  quoteAssetPrecision: 2,
  orderTypes: ['LIMIT', 'MARKET', 'LIMIT_MAKER', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'],
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '100000000', tickSize: '0.01' },
    { filterType: 'LOT_SIZE', minQty: '0.000001', maxQty: '100', stepSize: '0.000001' },
    { filterType: 'NOTIONAL', minNotional: '50', maxNotional: '20000000' },
    { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 200 },
  ],
};
