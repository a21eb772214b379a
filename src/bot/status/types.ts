/**
 * The bot's status snapshot (issue 21 deliverable 4, "What the operator sees"): per strategy its
 * position, open orders, realised and unrealised PnL and last signal; stream health; weight used
 * as a share of the budget; clock offset. One shape, two producers: the running bot fills it
 * in-process (src/bot/), and `halyard status --journal` rebuilds it from a journal alone
 * (from-journal.ts). Both render through render-block.ts.
 *
 * Plain data only (JSON-serialisable, no classes, no Decimal): money and quantities are decimal
 * strings, exact as the venue or the journal gave them (project rule: a decimal string at every
 * boundary); times are epoch milliseconds; ids are strings.
 */

/** The run's state: `crashed` is only ever found from a journal (live-run-store.ts). */
export type BotRunState = 'running' | 'stopped' | 'crashed';

/** How a run ended (live-run-store.ts ExitReason), null while running. */
export type BotExitReason = 'stopped' | 'signal' | 'error' | 'crashed';

/** Decimal string, e.g. `"0.015"`, `"-12.5"`. */
export type DecimalString = string;

export interface BotStatusSnapshot {
  /** The runs row's id. */
  runId: string;
  /** `live` against the real venue, `sandbox` against the embedded one. */
  kind: 'live' | 'sandbox';
  state: BotRunState;
  startedAt: number;
  /** Null while running. */
  endedAt: number | null;
  exitReason: BotExitReason | null;
  /** e.g. the error's message or the signal; null when none. */
  exitDetail: string | null;
  /** When this snapshot was taken (the bot's clock, or the journal's last record for a stopped run). */
  asOf: number;
  /** The quote asset PnL is counted in when all strategies share one (e.g. `USDT`); null otherwise. */
  quoteAsset: string | null;
  strategies: StrategyStatus[];
  streams: StreamStatus;
  /** One entry per rate-limit pool (IP, UID, ORDERS); empty when unknown (e.g. from a journal). */
  weight: WeightPoolStatus[];
  /** Local clock minus venue clock (ms, positive = we are ahead); null when not measured. */
  clockOffsetMs: number | null;
  counts: BotCounts;
  /** The treasury rebalancer (src/treasury/bot), when the config has a treasury section. */
  treasury?: TreasuryStatus;
}

/** What the treasury rebalancer did last and does next (src/treasury/bot/rebalancer.ts). */
export interface TreasuryStatus {
  state: 'waiting' | 'running' | 'paused' | 'off';
  /** Why paused, or what stays outside its band; null when nothing to say. */
  reason: string | null;
  lastRunAt: number | null;
  lastResult: string | null;
  nextRunAt: number | null;
  /** Moves that succeeded in this run. */
  movesDone: number;
}

export interface StrategyStatus {
  /** The strategy's name as in the bot config (unique in a run). */
  name: string;
  symbols: string[];
  /** One entry per symbol in `symbols`, same order. */
  positions: SymbolPosition[];
  openOrderCount: number;
  openOrders: OpenOrderStatus[];
  /** Over all of the strategy's symbols, in the quote asset. */
  realisedPnl: DecimalString;
  /** Marked at `SymbolPosition.markPrice`; `"0"` when flat. */
  unrealisedPnl: DecimalString;
  /** Fees paid in the quote asset, already counted in realised PnL; `"0"` when none. */
  fees: DecimalString;
  lastSignal: LastSignal | null;
  /** `failed` when the strategy threw and was stopped; `stopped` when stopped on purpose. */
  health: 'active' | 'failed' | 'stopped';
  /** Why it failed or stopped; null while active. */
  healthReason: string | null;
}

export interface SymbolPosition {
  symbol: string;
  /** Signed base quantity: positive long, negative short, `"0"` flat. */
  quantity: DecimalString;
  /** Average entry price of the open quantity; null when flat. */
  averageEntryPrice: DecimalString | null;
  /** The price unrealised PnL is marked at; null when none is known. */
  markPrice: DecimalString | null;
  /** Where the mark price comes from: the live last trade/bar close, the last fill, or the last recorded kline close. */
  markSource: 'last-trade' | 'last-fill' | 'kline-close' | null;
  /** When the mark price was observed. */
  markTime: number | null;
  unrealisedPnl: DecimalString;
  realisedPnl: DecimalString;
}

export interface OpenOrderStatus {
  /** The client order id. */
  clientOrderId: string;
  /** The venue's order id (lossless string) once known. */
  orderId: string | null;
  symbol: string;
  side: 'BUY' | 'SELL';
  /** e.g. LIMIT, LIMIT_MAKER, STOP_LOSS_LIMIT. */
  type: string;
  /** Null for a market order. */
  price: DecimalString | null;
  quantity: DecimalString;
  executedQuantity: DecimalString;
  /** The venue's status, e.g. NEW, PARTIALLY_FILLED; `PENDING` before the venue answered. */
  status: string;
  createdAt: number;
}

export interface LastSignal {
  time: number;
  /** `intent`: the strategy asked for something; `order`: an order update reached it. */
  kind: 'intent' | 'order';
  /** Short human text, e.g. `BUY 0.01 BTCUSDT LIMIT @ 50000`, `FILLED sma-1 0.01 @ 50010`. */
  summary: string;
  symbol: string | null;
}

/** Stream health states as the live venue names them (issue 20 deliverable 3). */
export type StreamState = 'CONNECTING' | 'LIVE' | 'STALE' | 'RESYNCING' | 'DOWN' | string;

export interface StreamStatus {
  /** Null when no state was reported yet. */
  userStream: { state: StreamState; since: number; reason: string | null } | null;
  /** `stream` while market data comes from WebSocket streams, `polling` while REST polling stands in. */
  marketData: { mode: 'stream' | 'polling' | 'unknown'; since: number | null; reason: string | null };
}

export interface WeightPoolStatus {
  pool: 'IP' | 'UID' | 'ORDERS';
  /** Weight (or order count) charged in the current window. */
  used: number;
  limit: number;
  /** used / limit in [0, 1+]; a display share, not money. */
  share: number;
  windowMs: number;
}

export interface BotCounts {
  /** Orders placed in the run (sent to the venue, accepted or not). */
  orders: number;
  /** Fills (trades) received in the run. */
  fills: number;
  /** Orders the venue or the guard rejected. */
  rejected: number;
  /** Closed bars received (from a journal: the live bars recorded that closed during the run); null when unknown. */
  bars: number | null;
}
