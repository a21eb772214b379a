/**
 * What a backtest produces: the contract between the backtest loop (which fills it) and the
 * metrics, report and sweep code (which read it). Money is decimal strings; equity points are
 * numbers because they only feed metrics and charts, never an order.
 */

export interface BacktestBar {
  openTime: number;
  closeTime: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

export interface BacktestFill {
  time: number;
  symbol: string;
  side: 'BUY' | 'SELL';
  price: string;
  qty: string;
  quoteQty: string;
  commission: string;
  commissionAsset: string;
  orderId: string;
  clientOrderId: string;
  tradeId: string;
  isMaker: boolean;
  /** The tag of the intent that placed the order (absent when it had none). */
  tag?: string;
}

/** A closed position: entry fills to the fills that brought the position back to flat (FIFO). */
export interface RoundTrip {
  symbol: string;
  direction: 'LONG' | 'SHORT';
  entryTime: number;
  exitTime: number;
  /** Volume-weighted average prices. */
  entryPrice: string;
  exitPrice: string;
  qty: string;
  /** Net of all fees, in the quote asset. */
  pnl: string;
  /** pnl / entry notional, as a ratio (0.01 is 1%). */
  returnRatio: number;
  fees: string;
  barsHeld: number;
  /** The tag of the order whose fill opened the trip, and of the one whose fill closed it (absent when untagged). */
  entryTag?: string;
  exitTag?: string;
}

/**
 * The position still held when the run ended: the trip it belongs to never went flat, so it is no
 * RoundTrip and is in no trade metric (its value is in the end equity, and so in net PnL). Valued
 * at the last bar's close; `unrealizedPnl` is before the fee an exit would pay; `realizedPnl` is
 * what its partial exits took.
 */
export interface OpenTrade {
  symbol: string;
  direction: 'LONG';
  /** The first fill of the trip still open (the first bar's open for base held at the start). */
  entryTime: number;
  /** Base held at the end, net of base commissions. */
  qty: string;
  /** What the lots still held cost in quote (FIFO, their quote commissions included). */
  cost: string;
  /** cost / qty. */
  entryPrice: string;
  /** The last bar's close. */
  markPrice: string;
  /** qty * markPrice. */
  value: string;
  /** value - cost. */
  unrealizedPnl: string;
  /**
   * Profit the trip has already taken by selling part of its position while staying open (a grid
   * around base held at the start, scaling out): its sells' proceeds net of their fees - the FIFO
   * cost of what they sold. "0" when it has sold nothing. The closed trades' PnL, this and
   * `unrealizedPnl` add up to the run's net PnL (less the fee an exit would pay).
   */
  realizedPnl: string;
  /** Fees the trip has paid so far, in quote (base commissions valued at their fill's price). */
  fees: string;
  /** Bars from the trip's first fill to the end of the run: the bar closes it was held at, as a closed trip's barsHeld counts to its exit. */
  barsHeld: number;
  /** The tag of the order whose fill opened the trip (absent when untagged, or for base held at the start). */
  entryTag?: string;
}

export interface EquityPoint {
  /** Bar close time. */
  time: number;
  /** Portfolio value in the quote asset at the bar's close. */
  equity: number;
  /**
   * Base held at the close (for exposure). In a run of several symbols: the quote value, at their
   * closes, of the base assets held at least at their symbol's minimum quantity (dust is none).
   */
  position: number;
}

/** An intent the order manager refused before the venue saw it. */
export interface DenialRecord {
  time: number;
  symbol: string;
  tag?: string | undefined;
  reasons: string[];
}

export interface StrategyFailure {
  time: number;
  handler: string;
  message: string;
  /** Where a handler threw: the first frame of the error's stack (`file:line:column`), when it had one. */
  at?: string;
}

/**
 * One symbol of a run of several (BacktestRun.symbols): what the run's single-symbol fields say
 * for one symbol (its base asset, bars, gaps, first open and last close, lot, open position).
 */
export interface SymbolRun {
  symbol: string;
  baseAsset: string;
  /** The symbol's bars played (a period where it had none is not counted). */
  barCount: number;
  /** Its bars missing between its first bar and its last. */
  missingBars: number;
  /** With a warmup per interval (BacktestRun.warmupByInterval): its bars before its onBar first ran (all of them when it never did). */
  warmupIdleBars?: number;
  /** Its first bar's open and last bar's close: its buy and hold. */
  market: { open: string; close: string };
  lot?: { minQty: string; stepSize: string };
  /** The position in it still held at the end (absent when flat). */
  openTrade?: OpenTrade | undefined;
}

export interface BacktestRun {
  strategy: string;
  params: Record<string, unknown>;
  /** The symbol traded; in a run of several (`symbols`), their names joined by ','. */
  symbol: string;
  interval: string;
  /** The symbol's base asset; in a run of several, their base assets joined by ','. */
  baseAsset: string;
  quoteAsset: string;
  /**
   * A run of several symbols (one account, the quote shared): each symbol's own figures, in the
   * order given. `market`, `lot` and `openTrade` are then per symbol here, not on the run;
   * `barCount` counts periods (a period with a bar of any symbol), `missingBars` adds up the
   * symbols'. Absent from a run of one symbol.
   */
  symbols?: SymbolRun[];
  from: number;
  to: number;
  barCount: number;
  /**
   * The symbol's longer intervals the strategy declared beside `interval`, longest first: their
   * bars were made from the run's and handed to it as each closed. Absent when it declared none.
   */
  longerIntervals?: string[];
  /**
   * The strategy's `warmup`: closed bars its series needed before onBar ran. They come from the
   * run's own bars (nothing is loaded before `from`): the first warmup - 1 bars only filled its
   * history. Absent from a run made by hand, and with a warmup per interval (`warmupByInterval`).
   */
  warmup?: number;
  /**
   * With the strategy's `warmup` given per interval (define.ts) instead of `warmup`: each declared
   * interval's count (0 where it named none). onBar ran once every series had its count.
   */
  warmupByInterval?: Record<string, number>;
  /**
   * With `warmupByInterval`: the run's bars before onBar first ran (they only filled the history;
   * all of them when it never ran). Of several symbols: the periods before every symbol's onBar
   * ran (each symbol's own in `symbols`).
   */
  warmupIdleBars?: number;
  /**
   * Bars before the range handed to the strategy as history (BacktestOptions.history: a
   * walk-forward window's preceding bars, the journal's before --from for a warmup per interval),
   * so the warmup took that many fewer of the run's own.
   * Absent when none were.
   */
  startupBars?: number;
  /**
   * Bars of the interval missing between the first bar and the last: slots where the data has no
   * bar (a venue that makes no kline for a period without trades, a gap in a download). The
   * strategy's bars run across them as if consecutive. Absent from a run made by hand.
   */
  missingBars?: number;
  /**
   * Of `missingBars`, those where the exchange was asked and had none (ranges `halyard record`
   * checked: minutes without a trade, not data missing). Set by the CLI from the journal; absent
   * when it could not tell (a CSV import, bars made from shorter ones) or none are.
   */
  missingNoTrades?: number;
  /**
   * The first bar's open and the last bar's close, as their texts: what holding the base asset
   * over the run did (metrics' marketReturnPct). Absent from a run made by hand.
   */
  market?: { open: string; close: string };
  /**
   * The symbol's LOT_SIZE minQty and stepSize, as their texts: the least position that counts as
   * held for exposure (metrics-trades.ts exposureThreshold). Absent from a run made by hand, from
   * one of a symbol without LOT_SIZE and from runs written before it was recorded.
   */
  lot?: { minQty: string; stepSize: string };
  startBalances: Record<string, string>;
  endBalances: Record<string, string>;
  fees: { maker: string; taker: string };
  fillModel: Record<string, unknown>;
  fills: BacktestFill[];
  trades: RoundTrip[];
  /** The position held at the end, when the run ended holding at least the minimum quantity (absent otherwise). */
  openTrade?: OpenTrade | undefined;
  equity: EquityPoint[];
  /** What the strategy plotted (ctx.plot), when the run recorded it (BacktestOptions.recordPlots) and it plotted anything. */
  plots?: PlotLine[];
  /**
   * The orders that reached the venue, by status at the end (order-counts.ts): FILLED, CANCELED,
   * EXPIRED, REJECTED... as they ended, NEW or PARTIALLY_FILLED when still open. Denied intents are
   * `denials`. Absent from a run made by hand and from runs written before it was recorded.
   */
  orders?: Record<string, number>;
  denials: DenialRecord[];
  strategyFailures: StrategyFailure[];
  /** Warnings about the run itself (run-notices.ts): a warmup the run never got past. Absent from a run made by hand. */
  notices?: string[];
}

/** A line a strategy plotted (ctx.plot): its points are [clock time in ms, value], in time order, one per time. */
export interface PlotLine {
  name: string;
  pane: 'price' | 'below';
  color?: string;
  points: [number, number][];
}

export interface BacktestMetrics {
  startEquity: number;
  endEquity: number;
  netPnl: number;
  returnPct: number;
  /**
   * Buy and hold over the same bars: the last close over the first open, in percent (0 when the run
   * does not say). Of several symbols: the start quote split equally across them (the mean of theirs).
   */
  marketReturnPct: number;
  cagrPct: number;
  maxDrawdownPct: number;
  /** CAGR over max drawdown (both in percent) for a gain; 0 for a loss; +Infinity for a gain with no drawdown. */
  calmar: number;
  sharpe: number;
  sortino: number;
  winRatePct: number;
  profitFactor: number;
  exposurePct: number;
  feesPaid: number;
  trades: number;
  fills: number;
}
