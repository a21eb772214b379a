/**
 * `exits()`: stop-loss, take-profit, trailing stop and time limit for a LONG spot position, as
 * intents (Freqtrade's stoploss / minimal_roi / trailing_stop, Hummingbot's triple barrier,
 * NautilusTrader's bracket with a trailing stop). Spec 4.5 (STOP_LOSS, MARKET; trigger rules),
 * protocol notes 6 (cancelReplace).
 *
 * Why a helper: the venue has no OCO and no trailing order type, and a resting STOP_LOSS and a
 * take-profit LIMIT on one position would each lock the base (the second is denied for
 * balance). So ONE exit order is kept and changed with cancelReplace:
 *
 * - after an entry fill (a BUY of the symbol, partial or whole), a protective STOP_LOSS of
 *   `capQty(position.base)` at `avgEntryPrice * (1 - stopLoss)`, rounded down to the tick, rests
 *   at the venue: the backtest's simulated venue triggers it honestly on the bar's path (its low);
 * - a further entry (or any other change of the position) re-sizes it, from the new average;
 * - trailing: once a close reaches `avgEntryPrice * (1 + activation)`, each new highest close
 *   raises the stop to `highest * (1 - distance)` when that is above the stop-loss level (never
 *   lowers it): the order is then tagged 'trail';
 * - a close at or over `avgEntryPrice * (1 + takeProfit)`, or a bar closing `timeLimitMs` or more
 *   after the first entry fill, turns the stop into a MARKET exit (cancelReplace, tags 'tp' and
 *   'time');
 * - a stop the venue or the pre-trade checks refuse (REJECTED / DENIED: the price is already past
 *   it, say) leaves at MARKET under the stop's tag; what an exit leaves behind (a position above
 *   LOT_SIZE maxQty) leaves at MARKET too, until flat; a MARKET exit that is refused is logged and
 *   the position left alone until it changes (base locked elsewhere, say);
 * - dust (under one step, or worth less than the minimum notional at the last close) gets no
 *   order at all: logged once, left alone until the position changes, and counted as flat by
 *   `flat(ctx)` so an entry logic does not wait behind it for ever.
 *
 * One command at a time: while a place, replace or cancel is unanswered nothing else is sent (an
 * exit in flight is never doubled); decisions taken meanwhile are acted on when it is answered.
 * Everything lives in a plain object in the strategy's state (no client, no timers, no globals),
 * so it behaves the same in the testing kit, a backtest and live. Long positions only: a spot
 * venue holds no short position to protect. Prices are computed with Decimal from the position's
 * `avgEntryPrice` and the bar's exact close; the config's fractions are numbers.
 */
import { z } from 'zod';
import type { Dec } from '../../core/money/decimal.ts';
import { D, dec, toWire } from '../../core/money/decimal.ts';
import { HalyardError } from '../../exchange/errors/errors.ts';
import type { StrategyContext } from '../context.ts';
import { configIssueTexts } from './config-issues.ts';
import { describeValue } from '../describe-value.ts';
import type { InstrumentView } from '../instrument-view.ts';
import { cancel, cancelReplace, place } from '../intents/intents.ts';
import type { IntentInput } from '../intents/intents.ts';
import type { Bar, Denied, Fill, OrderUpdate, Position } from '../types.ts';

/** Why a position leaves: the stop-loss, the take-profit, the trailing stop, the time limit. */
export type ExitReason = 'sl' | 'tp' | 'trail' | 'time';
export const EXIT_REASONS: readonly ExitReason[] = ['sl', 'tp', 'trail', 'time'];

export interface ExitsConfig {
  /** Fraction of the average entry price the stop sits under: 0.02 is 2% under it (0 < x < 1). */
  readonly stopLoss: number;
  /** Fraction over the average entry price at which a close leaves at MARKET (> 0). */
  readonly takeProfit?: number;
  /**
   * `activation`: fraction over the average entry price a close must reach for trailing to start
   * (>= 0); `distance`: fraction under the highest close since then the stop follows (0 < x < 1).
   */
  readonly trailingStop?: { readonly activation: number; readonly distance: number };
  /** Leave at MARKET once a bar closes this long after the first entry fill (ms, integer > 0). */
  readonly timeLimitMs?: number;
  /** Put before each exit tag ('sl', 'tp', 'trail', 'time'): 'btc-' gives 'btc-sl'. Default ''. */
  readonly tagPrefix?: string;
  /** The symbol whose position it guards; default the strategy's first (ctx.symbol). */
  readonly symbol?: string;
}

/** exits() was given a bad config; `issues` names each field. */
export class ExitsConfigError extends HalyardError {
  constructor(readonly issues: readonly string[]) {
    super('STRATEGY_EXITS_CONFIG', `exits(): ${issues.join('; ')}`);
  }
}

const WANT: Readonly<Record<string, string>> = {
  stopLoss: 'a fraction of the average entry price > 0 and < 1 (0.02: the stop 2% under it)',
  takeProfit: 'a fraction of the average entry price > 0 (0.03: leave 3% over it)',
  trailingStop: 'an object { activation, distance }',
  'trailingStop.activation': 'a fraction >= 0 over the average entry price at which trailing starts',
  'trailingStop.distance': 'a fraction > 0 and < 1 under the highest close the stop follows',
  timeLimitMs: 'a whole number of milliseconds > 0',
  tagPrefix: 'up to 15 characters of A-Z a-z 0-9 _ - (the exit tags are the prefix + sl, tp, trail, time)',
  symbol: 'a symbol name',
};

const schema = z.strictObject({
  stopLoss: z.number().gt(0).lt(1),
  takeProfit: z.number().gt(0).optional(),
  trailingStop: z.strictObject({ activation: z.number().min(0), distance: z.number().gt(0).lt(1) }).optional(),
  timeLimitMs: z.number().int().gt(0).optional(),
  tagPrefix: z.string().regex(/^[A-Za-z0-9_-]{0,15}$/).optional(),
  symbol: z.string().min(1).optional(),
});

/** The keys an object at a path may have, for an unknown one's message. */
const KNOWN: Readonly<Record<string, readonly string[]>> = { '': Object.keys(schema.shape), trailingStop: ['activation', 'distance'] };

/** The config, checked; an ExitsConfigError naming every bad field. */
export function parseExitsConfig(config: unknown): ExitsConfig {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new ExitsConfigError([`expected a config object such as { stopLoss: 0.02 }, got ${describeValue(config)}`]);
  const r = schema.safeParse(config);
  if (r.success) return r.data;
  throw new ExitsConfigError(configIssueTexts(config, r.error.issues, WANT, KNOWN));
}

/** An exit order as the helper asked for it. */
export interface ExitOrder {
  readonly reason: ExitReason;
  readonly type: 'STOP_LOSS' | 'MARKET';
  readonly quantity: string;
  readonly stopPrice?: string;
}

/** What the helper knows, as plain data (readable in tests and logs; it changes only through the handlers). */
export interface ExitState {
  /** The exit order open at the venue (acknowledged), with its client order id. */
  live: (ExitOrder & { readonly clientOrderId: string; filling?: boolean }) | undefined;
  /** The command sent and not yet answered: nothing else is sent meanwhile. */
  sent: { readonly kind: 'place' | 'replace'; readonly order: ExitOrder; readonly replaces?: string } | { readonly kind: 'cancel'; readonly order?: undefined } | undefined;
  /** Set once the position is to leave at MARKET, until it is flat. */
  leaving: ExitReason | undefined;
  /** Time of the first entry fill of the position (the time limit counts from it). */
  since: number | undefined;
  /** The highest close since trailing started (decimal text). */
  high: string | undefined;
  /** A position no exit could sell, left alone until it changes (`base@avgEntryPrice`). */
  stuck: string | undefined;
  /** A MARKET exit expired unfilled: send again on the next bar, not at once. */
  hold: boolean;
  /**
   * Client order ids of its orders that are over (filled, cancelled, replaced), the last few: a
   * late event of one (the stop's FILLED update after the MARKET exit of the rest went out under
   * the same tag) is not taken for the order in flight.
   */
  retired: string[];
}

type AnyContext = StrategyContext<unknown, unknown>;
const NONE: readonly IntentInput[] = Object.freeze([]);
const TERMINAL_OFF = new Set(['CANCELED', 'EXPIRED', 'PARTIALLY_CANCELED']);
const positionKey = (p: Position): string => `${toWire(p.base)}@${p.avgEntryPrice === undefined ? '' : toWire(p.avgEntryPrice)}`;

/**
 * The helper: keep one in the strategy's state (`state: () => ({ exit: exits({ stopLoss: 0.02 }) })`)
 * and hand it the strategy's bars, fills, order updates and denials (all four: an entry fill is
 * what places the stop, an update what tells it the stop is resting); each method returns the
 * intents to return (an empty list when there is nothing to do). Its orders are the SELLs tagged
 * `tags`; every BUY fill of the symbol counts as an entry. One helper guards one symbol.
 */
export class PositionExits {
  readonly config: ExitsConfig;
  /** The tags of its orders, by reason. */
  readonly tags: Readonly<Record<ExitReason, string>>;
  readonly state: ExitState = { live: undefined, sent: undefined, leaving: undefined, since: undefined, high: undefined, stuck: undefined, hold: false, retired: [] };
  private readonly slFactor: Dec;
  private readonly tpFactor: Dec | undefined;
  private readonly activationFactor: Dec | undefined;
  private readonly distanceFactor: Dec | undefined;
  private readonly reasonOf: ReadonlyMap<string, ExitReason>;

  constructor(config: ExitsConfig) {
    this.config = Object.freeze(parseExitsConfig(config));
    const prefix = this.config.tagPrefix ?? '';
    this.tags = Object.freeze({ sl: `${prefix}sl`, tp: `${prefix}tp`, trail: `${prefix}trail`, time: `${prefix}time` });
    this.reasonOf = new Map(EXIT_REASONS.map((r) => [this.tags[r], r]));
    const { stopLoss, takeProfit, trailingStop } = this.config;
    this.slFactor = new D(1).minus(stopLoss);
    this.tpFactor = takeProfit === undefined ? undefined : new D(1).plus(takeProfit);
    this.activationFactor = trailingStop && new D(1).plus(trailingStop.activation);
    this.distanceFactor = trailingStop && new D(1).minus(trailingStop.distance);
  }

  /**
   * Flat for an entry: the position is flat (ctx.position().flat), or what is held is dust no exit
   * could sell (below the minimums), left alone until the position changes. An entry logic that
   * waits for `ctx.position().flat` would wait for ever behind such a remainder.
   */
  flat(ctx: AnyContext): boolean {
    const position = ctx.position(this.symbolOf(ctx));
    return position.flat || (this.state.stuck !== undefined && this.state.stuck === positionKey(position));
  }

  /** Whether a tag is one of its orders'. */
  owns(tag: string | undefined): boolean {
    return tag !== undefined && this.reasonOf.has(tag);
  }

  /** A bar closed: follow the high, check the take-profit and the time limit, keep the stop in line with the position. */
  onBar(ctx: AnyContext, bar: Bar): readonly IntentInput[] {
    const symbol = this.symbolOf(ctx);
    if (bar.symbol !== symbol) return NONE;
    const s = this.state;
    s.hold = false;
    const position = ctx.position(symbol);
    const entry = position.avgEntryPrice;
    if (position.flat || entry === undefined) return this.sync(ctx);
    const time = bar.closeTime + 1;
    s.since ??= time; // held without an entry fill seen (held at the start): counted from now
    const close = dec(bar.exact.close, 'bar.close');
    if (this.activationFactor && close.gte(entry.times(this.activationFactor)) && (s.high === undefined || close.gt(s.high))) s.high = toWire(close);
    if (s.leaving === undefined) {
      if (this.tpFactor && close.gte(entry.times(this.tpFactor))) s.leaving = 'tp';
      else if (this.config.timeLimitMs !== undefined && time - s.since >= this.config.timeLimitMs) s.leaving = 'time';
    }
    return this.sync(ctx);
  }

  /** A fill of the strategy: an entry (BUY) re-sizes the stop; its own exit's fill ends it. */
  onFill(ctx: AnyContext, fill: Fill): readonly IntentInput[] {
    if (fill.symbol !== this.symbolOf(ctx)) return NONE;
    const s = this.state;
    if (this.owns(fill.tag)) {
      const order = this.concerns(fill.clientOrderId, fill.tag);
      if (order !== undefined) {
        // A stop that fills has triggered: the position is leaving, whatever it leaves behind.
        s.leaving ??= order.reason;
        if (fill.orderStatus === 'FILLED') this.ended(fill.clientOrderId);
        else if (s.live?.clientOrderId === fill.clientOrderId) s.live.filling = true;
      }
    } else if (fill.side === 'BUY') s.since ??= fill.time;
    return this.sync(ctx);
  }

  /** One of the strategy's orders changed: its own are followed; others are none of its business. */
  onOrderUpdate(ctx: AnyContext, update: OrderUpdate): readonly IntentInput[] {
    if (update.symbol !== this.symbolOf(ctx) || !this.owns(update.tag)) return NONE;
    const s = this.state;
    const sent = s.sent;
    const isLive = s.live?.clientOrderId === update.clientOrderId;
    const isSent = !isLive && sent?.order !== undefined && this.tags[sent.order.reason] === update.tag && !s.retired.includes(update.clientOrderId);
    const status = update.status;
    if (status === 'NEW' || status === 'PARTIALLY_FILLED') {
      if (isSent) {
        s.live = { ...sent.order, clientOrderId: update.clientOrderId };
        s.sent = undefined;
      }
      if (status === 'PARTIALLY_FILLED' && s.live?.clientOrderId === update.clientOrderId) {
        s.live.filling = true;
        s.leaving ??= s.live.reason;
      }
    } else if (status === 'FILLED') {
      if (isLive || isSent) {
        s.leaving ??= (isLive ? s.live : sent?.order)?.reason;
        this.ended(update.clientOrderId);
      }
    } else if (TERMINAL_OFF.has(status)) {
      if (isLive) {
        const was = s.live;
        s.live = undefined;
        this.retire(update.clientOrderId);
        if (sent?.kind === 'cancel') s.sent = undefined;
        else if (sent?.kind !== 'replace' && (was?.type === 'MARKET' || was?.filling)) {
          // An exit that stopped short (no liquidity for the rest): try again on the next bar.
          s.leaving ??= was.reason;
          s.hold = true;
        }
        // A stop cancelled by someone else is placed again below (sync).
      } else if (isSent && sent.order.type === 'MARKET') {
        s.sent = undefined;
        s.hold = true;
      }
    } else if ((status === 'REJECTED' || status === 'DENIED') && isSent) {
      s.sent = undefined;
      const order = sent.order;
      if (order.type === 'STOP_LOSS') {
        // The price is already past the stop (or the stop is not allowed): leave now, under its tag.
        ctx.log(`exits: ${update.tag} ${status} (${update.reason ?? 'no reason given'}): leaving at MARKET`);
        s.leaving ??= order.reason;
      } else {
        const position = ctx.position(this.symbolOf(ctx));
        if (!position.flat) return this.dust(ctx, position, `${update.tag} exit ${status} (${update.reason ?? 'no reason given'})`);
      }
    }
    return this.sync(ctx);
  }

  /** A cancel or cancel-replace of its own found no order (it filled or went meanwhile): catch up with the position. */
  onDenial(ctx: AnyContext, denial: Denied): readonly IntentInput[] {
    if (denial.symbol !== this.symbolOf(ctx) || !this.owns(denial.tag)) return NONE;
    const s = this.state;
    if (s.sent?.kind === 'replace' || s.sent?.kind === 'cancel') {
      s.sent = undefined;
      s.live = undefined;
    }
    return this.sync(ctx);
  }

  private symbolOf(ctx: AnyContext): string {
    return this.config.symbol ?? ctx.symbol;
  }

  /** The order (live or sent) an event of this client order id and tag is about, if any. */
  private concerns(clientOrderId: string, tag: string | undefined): ExitOrder | undefined {
    const s = this.state;
    if (s.live?.clientOrderId === clientOrderId) return s.live;
    const sent = s.sent?.order;
    return sent !== undefined && this.tags[sent.reason] === tag && !s.retired.includes(clientOrderId) ? sent : undefined;
  }

  /** Its order with this client order id is done (filled): the live one, or the one in flight (filled before its acknowledgement came). */
  private ended(clientOrderId: string): void {
    const s = this.state;
    if (s.live?.clientOrderId === clientOrderId) s.live = undefined;
    else if (s.sent?.order !== undefined) s.sent = undefined;
    this.retire(clientOrderId);
  }

  private retire(clientOrderId: string): void {
    const r = this.state.retired;
    if (r.includes(clientOrderId)) return;
    r.push(clientOrderId);
    if (r.length > 8) r.shift();
  }

  /** Where the stop belongs: the stop-loss level, or the trailing level when that is higher. */
  private stopFor(inst: InstrumentView, entry: Dec): { reason: ExitReason; stopPrice: string } {
    const sl = inst.roundPrice(entry.times(this.slFactor), 'down');
    const high = this.state.high;
    if (high === undefined || this.distanceFactor === undefined) return { reason: 'sl', stopPrice: sl };
    const trail = inst.roundPrice(dec(high).times(this.distanceFactor), 'down');
    return dec(trail).gt(sl) ? { reason: 'trail', stopPrice: trail } : { reason: 'sl', stopPrice: sl };
  }

  /** The one command that brings the venue in line with the position and the decisions, if any. */
  private sync(ctx: AnyContext): readonly IntentInput[] {
    const s = this.state;
    if (s.sent !== undefined) return NONE;
    const symbol = this.symbolOf(ctx);
    const position = ctx.position(symbol);
    const live = s.live;
    if (position.flat) {
      if (live === undefined) this.reset();
      else if (live.type === 'STOP_LOSS' && !live.filling) {
        // Flat with the stop still resting (the base went some other way): take it away. (A MARKET
        // exit's acknowledgement can arrive after the balance it moved: that one is waited for.)
        s.sent = { kind: 'cancel' };
        return [cancel({ symbol, tag: this.tags[live.reason] })];
      }
      return NONE;
    }
    if (s.stuck !== undefined) {
      if (s.stuck === positionKey(position)) return NONE;
      s.stuck = undefined;
    }
    // A stop filling, or a MARKET exit out: wait for it to end.
    if (live !== undefined && (live.filling || live.type === 'MARKET')) return NONE;
    const inst = ctx.instrument(symbol);
    const quantity = inst.capQty(position.base);
    // Dust (under one step, or worth less than the minimum notional at the last close): no exit
    // could sell it, so none is sent; `flat(ctx)` counts it as flat until the position changes.
    const last = ctx.bars(symbol).last?.exact.close;
    if (!dec(quantity).gt(0) || (last !== undefined && !inst.meetsMinimums(quantity, last))) {
      if (live === undefined) return this.dust(ctx, position, `below the minimums at ${last ?? 'the last price'}`);
      if (live.type === 'STOP_LOSS' && s.leaving === undefined) return NONE; // the stop rests: it may still sell it
    }
    let order: ExitOrder;
    if (s.leaving !== undefined) {
      if (s.hold) return NONE;
      order = { reason: s.leaving, type: 'MARKET', quantity };
    } else {
      if (position.avgEntryPrice === undefined) return NONE; // no entry price to measure a stop from
      const stop = this.stopFor(inst, position.avgEntryPrice);
      if (live !== undefined && live.quantity === quantity && live.stopPrice === stop.stopPrice && live.reason === stop.reason) return NONE;
      order = { ...stop, type: 'STOP_LOSS', quantity };
    }
    const fields = { side: 'SELL', type: order.type, quantity, ...(order.stopPrice === undefined ? {} : { stopPrice: order.stopPrice }), tag: this.tags[order.reason] } as const;
    if (live === undefined) {
      s.sent = { kind: 'place', order };
      return [place({ symbol, ...fields })];
    }
    s.sent = { kind: 'replace', order, replaces: live.clientOrderId };
    this.retire(live.clientOrderId);
    return [cancelReplace({ symbol, tag: this.tags[live.reason], order: fields })];
  }

  /** A position no exit can sell: left alone (and counted as flat by `flat(ctx)`) until it changes. */
  private dust(ctx: AnyContext, position: Position, why: string): readonly IntentInput[] {
    const key = positionKey(position);
    if (this.state.stuck !== key) ctx.log(`exits: ${toWire(position.base)} ${this.symbolOf(ctx)} cannot be sold, ${why}: left alone until the position changes`);
    this.state.stuck = key;
    return NONE;
  }

  private reset(): void {
    const s = this.state;
    s.live = undefined;
    s.sent = undefined;
    s.leaving = undefined;
    s.since = undefined;
    s.high = undefined;
    s.stuck = undefined;
    s.hold = false;
  }
}

/** `exits({ stopLoss: 0.02, takeProfit: 0.03, trailingStop: { activation: 0.01, distance: 0.005 }, timeLimitMs: 6 * 3600_000 })` */
export function exits(config: ExitsConfig): PositionExits {
  return new PositionExits(config);
}
