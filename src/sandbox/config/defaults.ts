/**
 * The sandbox's default market, assets and demo account: every default value in one place, so
 * the docs can show them and a config file can override any of them.
 *
 * Filter values are realistic for a peso exchange (spec 2.3; the sample exchangeInfo has
 * maxNumOrders 200 and maxNumAlgoOrders 5, spec 2.3 and 9.3 2022-08-12). The demo credentials
 * are deliberately public and deterministic: they only ever open a local sandbox.
 */
import type { SymbolFilterConfig } from './filters.ts';

export const ALL_ORDER_TYPES = ['LIMIT', 'MARKET', 'LIMIT_MAKER', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'] as const;

/** The demo master account's ready key (64 characters like the real ones). */
export const DEMO_API_KEY = 'hsbxDemoKey0000000000000000000000000000000000000000000000000001';
export const DEMO_API_SECRET = 'hsbxDemoSecret000000000000000000000000000000000000000000000001';
export const DEMO_EMAIL = 'demo@sandbox.halyard.local';
export const DEMO_UID = '100000001';

interface SymbolDefaults {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  baseAssetPrecision: number;
  quoteAssetPrecision: number;
  tickSize: string;
  stepSize: string;
  minQty: string;
  maxQty: string;
  minNotional: string;
  maxNotional: string;
}

function symbol(s: SymbolDefaults) {
  const filters: SymbolFilterConfig[] = [
    { filterType: 'PRICE_FILTER', minPrice: s.tickSize, maxPrice: '100000000', tickSize: s.tickSize },
    { filterType: 'LOT_SIZE', minQty: s.minQty, maxQty: s.maxQty, stepSize: s.stepSize },
    { filterType: 'NOTIONAL', minNotional: s.minNotional, maxNotional: s.maxNotional },
    { filterType: 'MIN_NOTIONAL', minNotional: s.minNotional },
    { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 200 },
    { filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 5 },
  ];
  return {
    symbol: s.symbol,
    status: 'TRADING' as const,
    baseAsset: s.baseAsset,
    baseAssetPrecision: s.baseAssetPrecision,
    quoteAsset: s.quoteAsset,
    quoteAssetPrecision: s.quoteAssetPrecision,
    orderTypes: [...ALL_ORDER_TYPES],
    filters,
    fees: { maker: '0.001', taker: '0.001' },
  };
}

export const DEFAULT_SYMBOLS = [
  symbol({ symbol: 'BTCPHP', baseAsset: 'BTC', quoteAsset: 'PHP', baseAssetPrecision: 8, quoteAssetPrecision: 2, tickSize: '0.01', stepSize: '0.000001', minQty: '0.000001', maxQty: '100', minNotional: '50', maxNotional: '20000000' }),
  symbol({ symbol: 'ETHPHP', baseAsset: 'ETH', quoteAsset: 'PHP', baseAssetPrecision: 8, quoteAssetPrecision: 2, tickSize: '0.01', stepSize: '0.0001', minQty: '0.0001', maxQty: '1000', minNotional: '50', maxNotional: '20000000' }),
  symbol({ symbol: 'BTCUSDT', baseAsset: 'BTC', quoteAsset: 'USDT', baseAssetPrecision: 8, quoteAssetPrecision: 2, tickSize: '0.01', stepSize: '0.000001', minQty: '0.000001', maxQty: '100', minNotional: '1', maxNotional: '500000' }),
  symbol({ symbol: 'ETHUSDT', baseAsset: 'ETH', quoteAsset: 'USDT', baseAssetPrecision: 8, quoteAssetPrecision: 2, tickSize: '0.01', stepSize: '0.0001', minQty: '0.0001', maxQty: '1000', minNotional: '1', maxNotional: '500000' }),
  symbol({ symbol: 'USDTPHP', baseAsset: 'USDT', quoteAsset: 'PHP', baseAssetPrecision: 2, quoteAssetPrecision: 3, tickSize: '0.001', stepSize: '0.01', minQty: '0.01', maxQty: '1000000', minNotional: '50', maxNotional: '20000000' }),
];

const network = (network: string, name: string, withdrawFee: string, withdrawMin: string, addressRegex: string, minConfirm: number) => ({
  network,
  name,
  depositEnable: true,
  withdrawEnable: true,
  withdrawFee,
  withdrawMin,
  withdrawMax: '1000000',
  withdrawIntegerMultiple: '0.00000001',
  minConfirm,
  unLockConfirm: minConfirm,
  addressRegex,
  memoRegex: '',
  withdrawDesc: '',
  sameAddress: false,
});

const EVM_ADDRESS = '^(0x)[0-9A-Fa-f]{40}$';

/** Assets and their chain networks (spec 2.8 coin configuration). PHP is fiat: no networks. */
export const DEFAULT_ASSETS = [
  { coin: 'BTC', name: 'Bitcoin', legalMoney: false, networks: [network('BTC', 'Bitcoin', '0.0002', '0.0005', '^(bc1|[13])[a-zA-HJ-NP-Z0-9]{25,62}$', 2)] },
  { coin: 'ETH', name: 'Ethereum', legalMoney: false, networks: [network('ETH', 'Ethereum (ERC20)', '0.002', '0.005', EVM_ADDRESS, 12)] },
  {
    coin: 'USDT',
    name: 'TetherUS',
    legalMoney: false,
    networks: [network('ETH', 'Ethereum (ERC20)', '5', '10', EVM_ADDRESS, 12), network('TRX', 'Tron (TRC20)', '1', '10', '^T[1-9A-HJ-NP-Za-km-z]{33}$', 20)],
  },
  { coin: 'PHP', name: 'Philippine Peso', legalMoney: true, networks: [] },
];

/** Roughly 100,000 PHP worth of each asset. */
export const DEMO_BALANCES: Record<string, string> = { PHP: '100000', USDT: '1700', BTC: '0.03', ETH: '0.5' };

export const DEFAULT_ACCOUNTS = [
  {
    uid: DEMO_UID,
    email: DEMO_EMAIL,
    balances: DEMO_BALANCES,
    keys: [{ apiKey: DEMO_API_KEY, secret: DEMO_API_SECRET, name: 'demo' }],
  },
];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Spec 8.5: bans grow for repeat offenders from 2 minutes to 3 days. */
export const DEFAULT_BAN_SCHEDULE_MS = [2 * MINUTE, 10 * MINUTE, HOUR, 6 * HOUR, 24 * HOUR, 72 * HOUR];

/**
 * Rough reference prices in PHP for the default assets: where a fresh sandbox's synthetic markets
 * start, and how limits value an asset before anything has traded.
 */
export const REFERENCE_PHP_PRICES: Readonly<Record<string, string>> = { BTC: '3500000', ETH: '200000', USDT: '58', PHP: '1' };
