/**
 * Market maker: quotes a LIMIT_MAKER bid and ask around the mid (from book tops, or the last
 * close before any book top arrives), `spreadBps` apart. Inventory skew: holding base shifts both
 * quotes down by up to `skewBps` at `maxInventory`, so the ask gets hit sooner and the bid later;
 * at `maxInventory` the bid is pulled. Spot, long only: the ask offers at most what is held.
 * A quote moves (cancelReplace) only when its target price is `refreshBps` away from the live one,
 * so noise does not churn orders. Slots are tagged `bid` and `ask`; order updates keep them honest
 * (an order that ends without filling frees its slot; the old order of a cancel-replace does not).
 * A `quantity` below the symbol's LOT_SIZE step is refused at the first quote with the reason
 * (the strategy stops) rather than quoting nothing.
 *
 * Live, answers come later than the next book top (protocol notes 6 cancelReplace, sent
 * concurrently). So a side whose place or replace is unanswered is left alone until the answer
 * (a replace of a not-yet-acknowledged order races its own placement: -1132 "Unknown order", and
 * each refusal leaves one more order behind). A refused or denied quote (-1132 because the order
 * filled on the way, -2010 a LIMIT_MAKER that would take, a capital denial) pauses its side,
 * doubling from `BACKOFF_MS` up to `MAX_BACKOFF_MS`, so refusals are never answered at the rate of
 * book tops (that spends the ORDERS budget: -1015). A LIMIT_MAKER is kept off the other side of
 * the book top, and an ask below the symbol's minimums (a sliver held) is not placed.
 */
import { cancel, cancelReplace, D, decimalParam, defineStrategy, intervalParam, place, TERMINAL_STATUSES, z } from '../src/strategy/index.ts';
import type { IntentInput, OrderUpdate, StrategyContext } from '../src/strategy/index.ts';

type Side = 'bid' | 'ask';

interface Quote {
  price: string;
  quantity: string;
  /** Set once the venue acknowledged this quote (NEW); undefined while in flight. */
  clientOrderId: string | undefined;
  /** While a cancel-replace is in flight: the quote it replaces, still live if the replace is refused. */
  replacing?: Quote | undefined;
}

interface MmState {
  bid: Quote | undefined;
  ask: Quote | undefined;
  /** Per side: no new quote before this time (ms), after a refusal. */
  pausedUntil: Record<Side, number>;
  /** Per side: refusals in a row (the back-off doubles with each); an acknowledged quote resets it. */
  refusals: Record<Side, number>;
}

/** First pause after a refusal, and the longest. */
export const BACKOFF_MS = 1_000;
export const MAX_BACKOFF_MS = 60_000;

interface MmParams {
  readonly spreadBps: number;
  readonly skewBps: number;
  readonly refreshBps: number;
  readonly quantity: string;
  readonly maxInventory: string;
}

export default defineStrategy({
  name: 'market-maker',
  description: 'Two-sided LIMIT_MAKER quotes around the mid with inventory skew and a max inventory.',
  params: z.object({
    symbol: z.string().min(1).default('BTCPHP'),
    interval: intervalParam().default('1m'),
    /** Distance between bid and ask, in basis points of the mid. */
    spreadBps: z.number().positive().max(10_000).default(20),
    /** Quote shift at full inventory, in basis points of the mid. */
    skewBps: z.number().min(0).max(10_000).default(10),
    /** Minimum move of a quote's target before it is replaced, in basis points. */
    refreshBps: z.number().min(0).default(5),
    /** Base quantity per quote. */
    quantity: decimalParam().default('0.001'),
    /** Most base to hold; the bid is pulled at this level. */
    maxInventory: decimalParam().default('0.01'),
  }),
  symbols: (p) => [p.symbol],
  intervals: (p) => [p.interval],
  warmup: 1,
  state: (): MmState => ({ bid: undefined, ask: undefined, pausedUntil: { bid: 0, ask: 0 }, refusals: { bid: 0, ask: 0 } }),

  onBookTop: (ctx) => requote(ctx),
  // Bars only drive quoting until book tops arrive.
  onBar: (ctx) => (twoSided(ctx.book()) ? undefined : requote(ctx)),
  onFill: (ctx, fill) => {
    const side: Side | undefined = fill.tag === 'bid' || fill.tag === 'ask' ? fill.tag : undefined;
    if (side && fill.orderStatus === 'FILLED') ctx.state[side] = undefined;
    return requote(ctx);
  },
  onOrderUpdate: (ctx, update) => track(ctx.state, update, ctx.now()),
  // A replace refused because nothing of that side is open any more (it filled or was cancelled
  // while the replace was on its way): the slot is empty, so quote afresh rather than replace again.
  onDenial: (ctx, denial) => {
    const side: Side | undefined = denial.tag === 'bid' || denial.tag === 'ask' ? denial.tag : undefined;
    if (!side) return [];
    refused(ctx.state, side, ctx.now());
    if (denial.intent !== 'cancelReplace' || ctx.openOrders(ctx.symbol).some((o) => o.tag === side)) return [];
    ctx.state[side] = undefined;
    return requote(ctx);
  },
  onStop: (ctx) => (['bid', 'ask'] as const).filter((s) => ctx.state[s]).map((s) => cancel({ symbol: ctx.symbol, tag: s })),
});

/** A quote of `side` was refused: pause the side, twice as long as after the previous refusal. */
function refused(state: MmState, side: Side, now: number): void {
  const n = ++state.refusals[side];
  state.pausedUntil[side] = now + Math.min(MAX_BACKOFF_MS, BACKOFF_MS * 2 ** Math.min(n - 1, 16));
}

/** Keep each slot's client order id; free a slot whose own order ended without filling. */
function track(state: MmState, update: OrderUpdate, now: number): void {
  const side: Side | undefined = update.tag === 'bid' || update.tag === 'ask' ? update.tag : undefined;
  const quote = side && state[side];
  if (!side || !quote) return;
  if (update.status === 'NEW' && quote.clientOrderId === undefined) {
    quote.clientOrderId = update.clientOrderId;
    quote.replacing = undefined;
    state.refusals[side] = 0;
  } else if (TERMINAL_STATUSES.includes(update.status) && update.status !== 'FILLED') {
    // The order being replaced ended (the replace's cancel went through): a refusal of the new one now leaves nothing.
    if (quote.replacing !== undefined && quote.replacing.clientOrderId === update.clientOrderId) quote.replacing = undefined;
    const ours = quote.clientOrderId === update.clientOrderId;
    const refusedInFlight = quote.clientOrderId === undefined && ['REJECTED', 'DENIED', 'EXPIRED'].includes(update.status);
    // A refused replace leaves the quote it replaced on the book: the slot keeps it (else the next
    // quote would be placed beside it, and each refusal would leave one more order behind).
    if (ours) state[side] = undefined;
    else if (refusedInFlight) {
      state[side] = quote.replacing;
      refused(state, side, now);
    }
  }
}

function requote(ctx: StrategyContext<MmParams, MmState>): IntentInput[] {
  // A book top with an empty side (price 0: the side was swept, or its quotes are being replaced)
  // has no mid; quoting around half the ask would buy far off the market. The last close stands in.
  const top = ctx.book();
  const mid = twoSided(top) ? top!.mid : ctx.bars().close();
  if (mid === undefined) return [];
  const p = ctx.params;
  const inst = ctx.instrument();
  const held = ctx.position().base;
  const max = new D(p.maxInventory);
  const fullness = Math.min(1, held.div(max).toNumber());
  const centre = mid * (1 - (fullness * p.skewBps) / 10_000);
  const half = (mid * p.spreadBps) / 20_000;
  const bidQty = inst.roundQty(p.quantity);
  if (!new D(bidQty).gt(0)) throw new Error(`quantity ${p.quantity} is below ${ctx.symbol}'s LOT_SIZE step ${inst.stepSize ?? ''}: set a larger quantity`);
  const askQty = inst.roundQty(D.min(held, p.quantity));
  // A LIMIT_MAKER at or across the other side's best price would take: -2010. Join the own side's best instead.
  let bidPrice = inst.roundPrice(centre - half, 'down');
  let askPrice = inst.roundPrice(centre + half, 'up');
  if (twoSided(top) && new D(bidPrice).gte(top!.exact.askPrice)) bidPrice = top!.exact.bidPrice;
  if (twoSided(top) && new D(askPrice).lte(top!.exact.bidPrice)) askPrice = top!.exact.askPrice;
  const want: Record<Side, Quote | undefined> = {
    bid: held.plus(p.quantity).lte(max) ? { price: bidPrice, quantity: bidQty, clientOrderId: undefined } : undefined,
    // A sliver held (below minQty or the minimum notional) is no ask: it would be denied at every book top.
    ask: new D(askQty).gt(0) && inst.meetsMinimums(askQty, askPrice) ? { price: askPrice, quantity: askQty, clientOrderId: undefined } : undefined,
  };
  const out: IntentInput[] = [];
  const now = ctx.now();
  for (const side of ['bid', 'ask'] as const) {
    const live = ctx.state[side];
    const target = want[side];
    // Unanswered (placed or replaced, not yet acknowledged): wait for the answer; paused after a refusal: wait.
    if ((live && live.clientOrderId === undefined) || now < ctx.state.pausedUntil[side]) continue;
    const order = target && { side: side === 'bid' ? ('BUY' as const) : ('SELL' as const), type: 'LIMIT_MAKER' as const, quantity: target.quantity, price: target.price };
    if (!live && target && order) {
      out.push(place({ symbol: ctx.symbol, ...order, tag: side }));
      ctx.state[side] = target;
    } else if (live && !target) {
      out.push(cancel({ symbol: ctx.symbol, tag: side }));
      ctx.state[side] = undefined;
    } else if (live && target && order && (moved(live.price, target.price, p.refreshBps) || live.quantity !== target.quantity)) {
      out.push(cancelReplace({ symbol: ctx.symbol, tag: side, order }));
      ctx.state[side] = { ...target, replacing: live };
    }
  }
  return out;
}

function twoSided(top: { bidPrice: number; askPrice: number } | undefined): boolean {
  return top !== undefined && top.bidPrice > 0 && top.askPrice > 0;
}

function moved(live: string, target: string, bps: number): boolean {
  if (live === target) return false;
  return new D(target).minus(live).abs().div(live).times(10_000).gte(bps);
}
