/**
 * Builders for the matching tests and the benchmark: a BTCPHP-like instrument with simple
 * numbers, an engine with counting id generators (above 2^53, as the sandbox issues them), and
 * funded accounts. Not part of the public surface.
 */
import { parseInstrument } from '../market/index.ts';
import type { Instrument } from '../market/index.ts';
import { Balances } from '../portfolio/balances.ts';
import { SpotEngine } from './engine.ts';
import type { SpotEngineOptions } from './engine.ts';
import type { FeeRates } from './numbers/symbol-spec.ts';
import type { EngineEvent, NewOrderRequest, PlaceResult, PlaceSuccess } from './types.ts';

export const ALL_TYPES = ['LIMIT', 'MARKET', 'LIMIT_MAKER', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'];

export interface InstrumentSpec {
  symbol?: string;
  status?: string;
  orderTypes?: string[];
  filters?: Record<string, unknown>[];
}

export const DEFAULT_FILTERS: Record<string, unknown>[] = [
  { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
  { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000', stepSize: '0.001' },
  { filterType: 'NOTIONAL', minNotional: '1', maxNotional: '10000000' },
  { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 200 },
  { filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 5 },
];

export function instrument(spec: InstrumentSpec = {}): Instrument {
  return parseInstrument({
    symbol: spec.symbol ?? 'BTCPHP',
    status: spec.status ?? 'TRADING',
    baseAsset: 'BTC',
    baseAssetPrecision: 8,
    quoteAsset: 'PHP',
    quoteAssetPrecision: 2,
    orderTypes: spec.orderTypes ?? ALL_TYPES,
    filters: spec.filters ?? DEFAULT_FILTERS,
  });
}

export interface Harness {
  engine: SpotEngine;
  balances: Balances;
  events: EngineEvent[];
  /** Place and insist on acceptance. */
  place(account: string, req: Omit<NewOrderRequest, 'symbol'> & { symbol?: string }, now?: number): PlaceSuccess;
  /** Place and return whatever came back. */
  try(account: string, req: Omit<NewOrderRequest, 'symbol'> & { symbol?: string }, now?: number): PlaceResult;
}

export function harness(opts: Partial<SpotEngineOptions> & { instrument?: Instrument; fee?: FeeRates; fund?: Record<string, Record<string, string>> } = {}): Harness {
  const balances = opts.balances ?? new Balances();
  const events: EngineEvent[] = [];
  const inst = opts.instrument ?? instrument();
  const engine = new SpotEngine({
    instruments: [inst],
    defaultFees: opts.fee ?? { maker: '0', taker: '0' },
    feeAccountId: 'fees',
    firstOrderId: 2n ** 60n + 1n,
    firstTradeId: 2n ** 61n + 1n,
    balances,
    listener: (e) => events.push(e),
    ...opts,
  });
  for (const [account, assets] of Object.entries(opts.fund ?? { alice: { BTC: '100', PHP: '1000000' }, bob: { BTC: '100', PHP: '1000000' } })) {
    for (const [asset, amount] of Object.entries(assets)) balances.credit(account, asset, amount);
  }
  const tryPlace: Harness['try'] = (account, req, now = 1000) => engine.placeOrder(account, { symbol: inst.symbol, ...req }, now);
  return {
    engine,
    balances,
    events,
    try: tryPlace,
    place(account, req, now) {
      const r = tryPlace(account, req, now);
      if (!r.ok) throw new Error(`rejected: ${r.code} ${r.msg}`);
      return r;
    },
  };
}
