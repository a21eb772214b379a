/**
 * `protections()`: locks that keep a strategy from ENTERING for a while after it did badly
 * (Freqtrade's protections: CooldownPeriod, StoplossGuard, MaxDrawdown, LowProfitPairs). It sends
 * nothing and cancels nothing: a strategy keeps one in its state, hands it its bars and fills, and
 * asks `locked(ctx)` before it enters; `lockedUntil(ctx)` and `reason(ctx)` say until when and why,
 * and each new lock is logged once (ctx.log). Exits are never blocked.
 *
 * - `cooldown`: no entry for `bars` bars (of the strategy's first interval) or `ms` after a trade
 *   closed. A lock in bars ends on the bar grid (as Freqtrade rounds a lock up to the next
 *   candle): the next entry goes out at the earliest `bars` bars after the exit.
 * - `stoplossGuard`: `tradeLimit` losing trades that left by one of `exitTags` (default 'sl' and
 *   'trail', the tags of exits()) closed within `lookbackMs` lock for `lockMs`. A trailing stop
 *   that locked in a gain is no stop-loss (Freqtrade counts losing stops only, required_profit 0).
 * - `maxDrawdown`: a bar closing with the equity more than `maxDrawdown` under its highest close
 *   within `lookbackMs` locks for `lockMs`. Equity is what a backtest's equity curve values
 *   (recorder.ts), read from the context: the quote asset's and the base asset's balances (free
 *   and locked), the base at the bar's close; on an account shared with other strategies or
 *   holding other assets it is that account's, not the strategy's. Checked on every bar of the
 *   strategy's first interval (an open position's fall counts, where Freqtrade counts closed trades
 *   only); a lock starts the window afresh, so one drawdown locks once, not again once its lock ends.
 * - `lowProfit`: once `tradeLimit` trades (default 1) closed within `lookbackMs`, the sum of their
 *   profit ratios below `requiredProfit` (default 0) locks for `lockMs` (Freqtrade's
 *   LowProfitPairs sums close_profit too).
 * Trade-based locks are checked when a trade closes, over the trades closed within the lookback
 * (as Freqtrade evaluates them at each exit): a lock that ends is not renewed until a trade closes.
 *
 * Trades are the round trips of the strategy's own fills of its symbol, counted by the book that
 * makes a backtest's `run.trades` (core/portfolio/round-trips.ts), so a trade here is one there,
 * with the same PnL: a trade opens when the base held goes from flat to holding and closes when it
 * is flat again, flat being below LOT_SIZE minQty (the dust a base commission leaves). Its PnL is
 * its sells' quote net of commissions minus the cost of what they sold, lots matched first in,
 * first out (a buy's lot is the base received net of a base commission, at its quote plus any
 * quote commission); the ratio is PnL over the buys' quote (`run.trades`' returnRatio). Dust a
 * trade leaves behind is carried, at its cost, into the next trade, whose sells take it (until
 * this helper used the book, the dust's cost stayed with the trade that left it, which made that
 * trade look worse and the next one better by the dust's value, and disagreed with `run.trades`).
 * One difference remains: a sell while flat (dust alone, or base the helper did not count) closes
 * a trade without buys in `run.trades` and none here: nothing was entered, so nothing is judged.
 * Its exit tag is the tag of the fill that made it flat (`sl`, `trail`, `tp`, `time` with
 * exits()). The base held is counted from the fills (ctx.position() is no guide inside onFill: the
 * engine applies a batch of fills before telling the strategy of the first), starting from
 * `ctx.position()` the first time a bar or fill of the symbol arrives (normally the first bar after
 * the warm-up); a position held then is a trade whose cost is its average entry price, when the
 * engine knows one (else its PnL is unknown: it counts as an exit and a stop-loss, never for low
 * profit; its lots count as costing nothing, so dust it leaves adds its proceeds to the next trade).
 *
 * Time is the bars' and the fills' (`ctx.now()`, virtual in a backtest), never the wall clock;
 * money is exact decimals, the config's fractions are numbers. What the locks read lives in
 * `state`, a plain object (the trade in progress is the book's), so it behaves the same in the
 * testing kit, a backtest and live.
 */
import { z } from 'zod';
import { intervalMs } from '../../core/market/intervals.ts';
import type { Dec } from '../../core/money/decimal.ts';
import { D, dec, toWire } from '../../core/money/decimal.ts';
import { RoundTripBook } from '../../core/portfolio/round-trips.ts';
import type { BookFill, TripRecord } from '../../core/portfolio/round-trips.ts';
import { HalyardError } from '../../exchange/errors/errors.ts';
import type { StrategyContext } from '../context.ts';
import { configIssueTexts } from './config-issues.ts';
import { describeValue } from '../describe-value.ts';
import type { Bar, Fill } from '../types.ts';

export type ProtectionName = 'cooldown' | 'stoplossGuard' | 'maxDrawdown' | 'lowProfit';
export const PROTECTION_NAMES: readonly ProtectionName[] = ['cooldown', 'stoplossGuard', 'maxDrawdown', 'lowProfit'];

export interface ProtectionsConfig {
  /** No entry for `bars` bars of the strategy's first interval, or `ms`, after a trade closed (one of the two). */
  readonly cooldown?: { readonly bars?: number; readonly ms?: number };
  /** Lock for `lockMs` once `tradeLimit` losing trades left by one of `exitTags` (default ['sl', 'trail']) within `lookbackMs`. */
  readonly stoplossGuard?: { readonly tradeLimit: number; readonly lookbackMs: number; readonly lockMs: number; readonly exitTags?: readonly string[] };
  /** Lock for `lockMs` once the equity is more than `maxDrawdown` (a fraction) under its high within `lookbackMs`. */
  readonly maxDrawdown?: { readonly maxDrawdown: number; readonly lookbackMs: number; readonly lockMs: number };
  /** Lock for `lockMs` once `tradeLimit` (default 1) trades within `lookbackMs` made less than `requiredProfit` (default 0), their ratios summed. */
  readonly lowProfit?: { readonly requiredProfit?: number; readonly tradeLimit?: number; readonly lookbackMs: number; readonly lockMs: number };
  /** The symbol whose trades it follows; default the strategy's first (ctx.symbol). */
  readonly symbol?: string;
}

/** protections() was given a bad config (or one the strategy cannot use); `issues` names each field. */
export class ProtectionsConfigError extends HalyardError {
  constructor(readonly issues: readonly string[]) {
    super('STRATEGY_PROTECTIONS_CONFIG', `protections(): ${issues.join('; ')}`);
  }
}

const MS = 'a whole number of milliseconds > 0';
const WANT: Readonly<Record<string, string>> = {
  cooldown: 'an object with bars or ms, not both',
  'cooldown.bars': 'a whole number of bars >= 1',
  'cooldown.ms': MS,
  stoplossGuard: 'an object { tradeLimit, lookbackMs, lockMs, exitTags? }',
  'stoplossGuard.tradeLimit': 'a whole number of stop-loss exits >= 1',
  'stoplossGuard.lookbackMs': MS,
  'stoplossGuard.lockMs': MS,
  'stoplossGuard.exitTags': "a non-empty list of exit tags (default ['sl', 'trail'])",
  'stoplossGuard.exitTags[]': 'an exit tag (a string of 1 or more characters)',
  maxDrawdown: 'an object { maxDrawdown, lookbackMs, lockMs }',
  'maxDrawdown.maxDrawdown': 'a fraction of the equity > 0 and < 1 (0.05: 5% under its high)',
  'maxDrawdown.lookbackMs': MS,
  'maxDrawdown.lockMs': MS,
  lowProfit: 'an object { lookbackMs, lockMs, requiredProfit?, tradeLimit? }',
  'lowProfit.requiredProfit': 'a finite number, the sum of the trades profit ratios to reach (0.01: 1%; default 0)',
  'lowProfit.tradeLimit': 'a whole number of trades >= 1',
  'lowProfit.lookbackMs': MS,
  'lowProfit.lockMs': MS,
  symbol: 'a symbol name',
};

const ms = () => z.number().int().gt(0);
const schema = z.strictObject({
  cooldown: z.strictObject({ bars: z.number().int().min(1).optional(), ms: ms().optional() }).optional(),
  stoplossGuard: z.strictObject({ tradeLimit: z.number().int().min(1), lookbackMs: ms(), lockMs: ms(), exitTags: z.array(z.string().min(1)).min(1).optional() }).optional(),
  maxDrawdown: z.strictObject({ maxDrawdown: z.number().gt(0).lt(1), lookbackMs: ms(), lockMs: ms() }).optional(),
  lowProfit: z.strictObject({ requiredProfit: z.number().optional(), tradeLimit: z.number().int().min(1).optional(), lookbackMs: ms(), lockMs: ms() }).optional(),
  symbol: z.string().min(1).optional(),
});

/** The keys an object at a path may have, for an unknown one's message. */
const KNOWN: Readonly<Record<string, readonly string[]>> = {
  '': Object.keys(schema.shape),
  cooldown: ['bars', 'ms'],
  stoplossGuard: ['tradeLimit', 'lookbackMs', 'lockMs', 'exitTags'],
  maxDrawdown: ['maxDrawdown', 'lookbackMs', 'lockMs'],
  lowProfit: ['requiredProfit', 'tradeLimit', 'lookbackMs', 'lockMs'],
};

/** The config, checked; a ProtectionsConfigError naming every bad field. */
export function parseProtectionsConfig(config: unknown): ProtectionsConfig {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new ProtectionsConfigError([`expected a config object such as { cooldown: { bars: 5 } }, got ${describeValue(config)}`]);
  const r = schema.safeParse(config);
  if (!r.success) throw new ProtectionsConfigError(configIssueTexts(config, r.error.issues, WANT, KNOWN));
  const c = r.data.cooldown;
  if (c !== undefined && (c.bars === undefined) === (c.ms === undefined)) throw new ProtectionsConfigError([`'cooldown' must be ${WANT.cooldown as string}, got ${c.bars === undefined ? 'neither' : 'both'}`]);
  return r.data;
}

/** A lock: while `until` is ahead of ctx.now(), entries wait. */
export interface ProtectionLock {
  readonly protection: ProtectionName;
  /** When it was taken (the exit's fill time, or the bar's close for a drawdown). */
  readonly since: number;
  readonly until: number;
  /** In words, with the time it ends: what ctx.log got. */
  readonly reason: string;
}

/** A trade that closed, as the protections judge it. */
export interface ClosedTrade {
  readonly entryTime: number;
  readonly exitTime: number;
  /** The tag of the fill that made the position flat. */
  readonly exitTag: string | undefined;
  /** Sells' quote net of commissions - the FIFO cost of what they sold (decimal text, `run.trades`' pnl unrounded); undefined when its cost is unknown. */
  readonly pnl: string | undefined;
  /** pnl / the buys' quote (`run.trades`' returnRatio). */
  readonly ratio: number | undefined;
}

/** What the locks read, as plain data (readable in tests and logs; it changes only through onBar and onFill). */
export interface ProtectionsState {
  /** Closed trades, those within the longest lookback of stoplossGuard and lowProfit (none kept without them). */
  trades: ClosedTrade[];
  /**
   * maxDrawdown's window: the equity closes that may still be its high, oldest (the highest) first,
   * each lower than the one before (a close at or over earlier ones removes them).
   */
  highs: { readonly time: number; readonly equity: string }[];
  /** A bar boundary of the strategy's first interval (the last bar's close + 1): cooldown in bars ends on the grid. */
  grid: number | undefined;
  /** The last lock each protection took (expired ones stay until replaced). */
  locks: Partial<Record<ProtectionName, ProtectionLock>>;
}

type AnyContext = StrategyContext<unknown, unknown>;
const ZERO = new D(0);

/** `2024-03-01 14:00 UTC` (seconds and milliseconds only when there are some). */
export function formatUtc(time: number): string {
  const iso = new Date(time).toISOString();
  const rest = iso.slice(16, 23) === ':00.000' ? '' : iso.slice(19, 23) === '.000' ? iso.slice(16, 19) : iso.slice(16, 23);
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}${rest} UTC`;
}

/** `6h`, `1h30m`, `2d`, `45s`, `250ms`. */
export function formatDuration(ms: number): string {
  const parts: string[] = [];
  let left = ms;
  for (const [unit, size] of [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000], ['ms', 1]] as const) {
    const n = Math.floor(left / size);
    if (n > 0) parts.push(`${n}${unit}`);
    left -= n * size;
  }
  return parts.join('') || '0ms';
}

const percent = (ratio: number): string => `${Number((ratio * 100).toFixed(2))}%`;

/** A strategy's fill as the round-trip book reads it: its amounts as the venue's decimal texts. */
const bookFill = (f: Fill): BookFill => ({
  side: f.side,
  price: toWire(f.price),
  qty: toWire(f.qty),
  quoteQty: toWire(f.quoteQty),
  commission: toWire(f.commission),
  commissionAsset: f.commissionAsset,
  time: f.time,
  tag: f.tag,
});

/** A closed trip as the protections judge it (`unknown`: its cost is not known, so neither is its PnL). */
function closedTrade(r: TripRecord, unknown: boolean): ClosedTrade {
  const judged = !unknown && !r.buyNotional.isZero();
  return {
    entryTime: r.entryTime,
    exitTime: r.exitTime,
    exitTag: r.exitTag,
    pnl: unknown ? undefined : r.pnl.toString(),
    ratio: judged ? r.pnl.div(r.buyNotional).toNumber() : undefined,
  };
}

/**
 * The helper: keep one in the strategy's state (`state: () => ({ guard: protections({ cooldown: { bars: 5 } }) })`),
 * hand it the bars and fills (`guard.onBar(ctx, bar)` first thing in onBar, `guard.onFill(ctx, fill)`
 * in onFill), and do not enter while `guard.locked(ctx)`. One helper follows one symbol.
 */
export class Protections {
  readonly config: ProtectionsConfig;
  readonly state: ProtectionsState = { trades: [], highs: [], grid: undefined, locks: {} };
  /** The round trips of the symbol's fills; made, and seeded with the position, at its first bar or fill. */
  private book: RoundTripBook | undefined;
  /** The trip open when the book was seeded was a position of no known entry price: its trade's PnL is unknown. */
  private unknownEntry = false;
  private readonly exitTags: readonly string[];
  /** How long closed trades are kept: the longest trade lookback. */
  private readonly keepMs: number;

  constructor(config: ProtectionsConfig) {
    this.config = Object.freeze(parseProtectionsConfig(config));
    this.exitTags = Object.freeze([...(this.config.stoplossGuard?.exitTags ?? ['sl', 'trail'])]);
    this.keepMs = Math.max(this.config.stoplossGuard?.lookbackMs ?? 0, this.config.lowProfit?.lookbackMs ?? 0);
  }

  /** True while a lock is on (ctx.now() before its end): do not enter. */
  locked(ctx: AnyContext): boolean {
    return this.active(ctx).length > 0;
  }

  /** When the last active lock ends (ms); undefined when none is on. */
  lockedUntil(ctx: AnyContext): number | undefined {
    const active = this.active(ctx);
    return active.length ? Math.max(...active.map((l) => l.until)) : undefined;
  }

  /** Why entries are locked (the active locks' reasons, joined by '; '); undefined when none is on. */
  reason(ctx: AnyContext): string | undefined {
    const active = this.active(ctx);
    return active.length ? active.map((l) => l.reason).join('; ') : undefined;
  }

  /** The locks on now, in PROTECTION_NAMES order. */
  active(ctx: AnyContext): readonly ProtectionLock[] {
    const now = ctx.now();
    const out: ProtectionLock[] = [];
    for (const name of PROTECTION_NAMES) {
      const lock = this.state.locks[name];
      if (lock !== undefined && lock.until > now) out.push(lock);
    }
    return out;
  }

  /** A bar closed: keep the bar grid, and measure the drawdown on a bar of the strategy's first interval. */
  onBar(ctx: AnyContext, bar: Bar): void {
    const symbol = this.symbolOf(ctx);
    if (bar.symbol !== symbol || bar.interval !== ctx.intervals[0]) return;
    this.cooldownOf(ctx); // a cooldown in bars on an interval of no fixed length: said at once
    this.bookOf(ctx, ZERO);
    const now = bar.closeTime + 1;
    this.state.grid = now;
    if (this.config.maxDrawdown !== undefined) this.drawdown(ctx, now, dec(bar.exact.close, 'bar.close'));
  }

  /** A fill of the strategy: the book counts it; a fill that makes the position flat closes a trade, and the trade locks are checked. */
  onFill(ctx: AnyContext, fill: Fill): void {
    const symbol = this.symbolOf(ctx);
    if (fill.symbol !== symbol) return;
    const baseFee = fill.commissionAsset === ctx.instrument(symbol).baseAsset ? fill.commission : ZERO;
    const book = this.bookOf(ctx, fill.side === 'BUY' ? fill.qty.minus(baseFee) : fill.qty.plus(baseFee).neg());
    book.onFill(bookFill(fill), 0);
    for (const trip of book.takeClosed()) {
      if (trip.buyQty.isZero()) continue; // sold while flat (dust, base not counted): nothing was entered
      const unknown = this.unknownEntry;
      this.unknownEntry = false;
      this.closed(ctx, closedTrade(trip, unknown));
    }
  }

  private symbolOf(ctx: AnyContext): string {
    return this.config.symbol ?? ctx.symbol;
  }

  /**
   * The book, made the first time: seeded with the position less `delta` (what the fill being
   * applied added, as the position already holds it); a position held is a trip at its average
   * entry price, or at 0 when the engine knows none (its trade's PnL is then unknown).
   */
  private bookOf(ctx: AnyContext, delta: Dec): RoundTripBook {
    if (this.book !== undefined) return this.book;
    const symbol = this.symbolOf(ctx);
    const inst = ctx.instrument(symbol);
    const book = (this.book = new RoundTripBook(symbol, inst.baseAsset, inst.quoteAsset, dec(inst.minQty ?? '0')));
    const position = ctx.position(symbol);
    const entry = position.avgEntryPrice;
    book.seed(position.base.minus(delta), entry ?? ZERO, ctx.now());
    this.unknownEntry = entry === undefined && book.open !== undefined;
    return book;
  }

  /** The cooldown's length in ms, and a bar's length when it is given in bars (of the first interval); undefined without one. */
  private cooldownOf(ctx: AnyContext): { readonly ms: number; readonly bar?: number } | undefined {
    const c = this.config.cooldown;
    if (c === undefined) return undefined;
    if (c.bars === undefined) return { ms: c.ms as number };
    const interval = ctx.intervals[0];
    const bar = interval === undefined ? undefined : intervalMs(interval);
    if (bar === undefined) throw new ProtectionsConfigError([`'cooldown.bars' needs an interval of fixed length, and '${String(interval)}' has none: give cooldown.ms`]);
    return { ms: c.bars * bar, bar };
  }

  /** A trade closed: keep it (within the longest lookback), then the cooldown, the stoploss guard and low profit. */
  private closed(ctx: AnyContext, trade: ClosedTrade): void {
    const s = this.state;
    const now = trade.exitTime;
    if (this.keepMs > 0) {
      s.trades.push(trade);
      while (s.trades.length > 0 && (s.trades[0] as ClosedTrade).exitTime <= now - this.keepMs) s.trades.shift();
    }
    const cool = this.cooldownOf(ctx);
    if (cool !== undefined) {
      let until = now + cool.ms;
      // In bars: up to the grid of the bars seen (a week's bars open on Mondays, not at the epoch).
      if (cool.bar !== undefined && s.grid !== undefined) until = s.grid + Math.ceil((until - s.grid) / cool.bar) * cool.bar;
      const bars = this.config.cooldown?.bars;
      const length = bars !== undefined ? `${bars} bar${bars === 1 ? '' : 's'}` : formatDuration(cool.ms);
      this.lock(ctx, 'cooldown', now, until, `cooldown: ${length} after the exit at ${formatUtc(now)}`);
    }
    const guard = this.config.stoplossGuard;
    if (guard !== undefined) {
      const from = now - guard.lookbackMs;
      const stops = s.trades.filter((t) => t.exitTime > from && t.exitTag !== undefined && this.exitTags.includes(t.exitTag) && (t.pnl === undefined || dec(t.pnl).isNegative()));
      if (stops.length >= guard.tradeLimit) {
        this.lock(ctx, 'stoplossGuard', now, now + guard.lockMs, `stoploss guard: ${stops.length} stop-loss exits (${this.exitTags.join(', ')}) in ${formatDuration(guard.lookbackMs)}`);
      }
    }
    const low = this.config.lowProfit;
    if (low !== undefined) {
      const from = now - low.lookbackMs;
      const judged = s.trades.filter((t) => t.exitTime > from && t.ratio !== undefined);
      const profit = judged.reduce((sum, t) => sum + (t.ratio as number), 0);
      const required = low.requiredProfit ?? 0;
      if (judged.length >= (low.tradeLimit ?? 1) && profit < required) {
        const trades = `${judged.length} trade${judged.length === 1 ? '' : 's'}`;
        this.lock(ctx, 'lowProfit', now, now + low.lockMs, `low profit: ${trades} in ${formatDuration(low.lookbackMs)} made ${percent(profit)} (required ${percent(required)})`);
      }
    }
  }

  /** maxDrawdown on a bar's close: the equity against its high within the lookback. */
  private drawdown(ctx: AnyContext, now: number, close: Dec): void {
    const cfg = this.config.maxDrawdown;
    if (cfg === undefined) return;
    const inst = ctx.instrument(this.symbolOf(ctx));
    const equity = ctx.balance(inst.quoteAsset).total.plus(ctx.balance(inst.baseAsset).total.times(close));
    const highs = this.state.highs;
    while (highs.length > 0 && (highs[0] as { time: number }).time <= now - cfg.lookbackMs) highs.shift();
    while (highs.length > 0 && dec((highs[highs.length - 1] as { equity: string }).equity).lte(equity)) highs.pop();
    const text = toWire(equity);
    highs.push({ time: now, equity: text });
    const high = dec((highs[0] as { equity: string }).equity);
    if (!high.gt(0)) return;
    const fall = high.minus(equity).div(high);
    if (!fall.gt(cfg.maxDrawdown)) return;
    // A lock starts the window afresh: the same fall does not lock again once this lock ends.
    highs.length = 0;
    highs.push({ time: now, equity: text });
    const round = (d: Dec) => d.toSignificantDigits(10).toFixed();
    this.lock(ctx, 'maxDrawdown', now, now + cfg.lockMs, `max drawdown: equity ${round(equity)} ${inst.quoteAsset} is ${percent(fall.toNumber())} under its ${formatDuration(cfg.lookbackMs)} high of ${round(high)}`);
  }

  /** Take a lock, unless one of the protection already lasts as long: a new lock is logged once. */
  private lock(ctx: AnyContext, protection: ProtectionName, since: number, until: number, why: string): void {
    const had = this.state.locks[protection];
    if (had !== undefined && had.until >= until) return;
    const lock: ProtectionLock = { protection, since, until, reason: `${why}, locked until ${formatUtc(until)}` };
    this.state.locks[protection] = lock;
    ctx.log(`protections: ${lock.reason}`, { protection, since, until });
  }
}

/** `protections({ cooldown: { bars: 5 }, stoplossGuard: { tradeLimit: 3, lookbackMs: 6 * 3600_000, lockMs: 2 * 3600_000 } })` */
export function protections(config: ProtectionsConfig): Protections {
  return new Protections(config);
}
