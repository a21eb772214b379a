/**
 * What the live adapter has already forwarded to the order manager, so that each fill and each
 * step of an order reaches it once, whichever road (stream, REST answer, resync) brought it first
 * (issue 20 deliverable 4; spec 3.1: an order only moves forward).
 *
 * Per order (client order id, and order id once known): the furthest status and executed quantity
 * seen, whether it is working, and the trades applied (id, qty, quote). `admit(events, path)`
 * forwards what is new and drops, naming why ("duplicate from <path>: ..."), a fill whose
 * (order, trade id) was applied, an order event that does not move its order forward (a
 * resent report, the REST ACK after the stream's first fill, anything after the order ended), a
 * rejection of an order the venue acknowledged, and a balance older than the one applied. The
 * order manager refuses those too; the adapter must not even forward them, and journals each drop.
 *
 * Per symbol: the highest trade id seen (the resync's myTrades `fromId` is the next one; ids are
 * compared as BigInt, they exceed 2^53).
 *
 * Bounded memory. Open orders are kept however old. A closed order is forgotten `retainClosedMs`
 * after it closed (venue time, `prune(now)`), unless an answer without trades (a RESULT that said
 * FILLED) left it executed beyond the fills applied: the resync's per-order query must still find
 * those fills, and only held orders get one. Forgetting folds its trade ids into one number per
 * symbol, the highest trade id of a forgotten order (`forgottenTradeFloor`). That is enough to
 * keep recognising its trades, because of how they could come back:
 * - the resync asks myTrades from (highest seen + 1): never a trade already seen;
 * - its per-order myTrades query (an order whose executed quantity is ahead of its known trades)
 *   is only made for orders the ledger still holds;
 * - a resent stream message or a late REST answer: the venue numbers a symbol's trades upwards,
 *   so a fill of an order the ledger does not hold whose trade id is at or below the floor is
 *   an old trade (one of a forgotten order's, or of an order this process never held, which the
 *   order manager would refuse as unknown anyway): dropped. A new trade of any order is above it.
 * Late order events of a forgotten order are recognised by its order id, kept in a bounded
 * first-in-first-out set (`forgottenOrderIds`); past that bound they reach the order manager,
 * which holds closed orders longer still and finds them unchanged.
 */
import { D } from '../../core/money/decimal.ts';
import type { Dec } from '../../core/money/decimal.ts';
import type { OrderSide, OrderType } from '../../core/orders/types.ts';
import type { PlaceCommand, VenueBalanceEvent, VenueFillEvent, VenueOrderEvent, VenueOrderStatus } from '../../ports/venue.ts';
import { idBig, maxId } from './ids.ts';
import type { EventPath, LiveEvent, VenueAdoptEvent } from './live-events.ts';
import { isFinalStatus, statusRank } from './venue-status.ts';

/** The ledger's view of an order: the venue's statuses, plus sent-not-acknowledged and unknown outcome. */
export type LedgerStatus = 'PENDING_NEW' | 'UNKNOWN' | VenueOrderStatus | 'REJECTED';

export interface LedgerTrade {
  readonly id: string;
  readonly qty: string;
  readonly quoteQty: string;
}

/** One order as the ledger holds it (a copy: `snapshot()`). */
export interface LedgerOrder {
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly orderId?: string | undefined;
  readonly side?: OrderSide | undefined;
  readonly type?: OrderType | undefined;
  /** The quantity placed (the command's), when known. */
  readonly quantity?: string | undefined;
  readonly status: LedgerStatus;
  readonly executedQty: string;
  readonly working: boolean;
  /** Trades applied, ascending by id. */
  readonly trades: readonly LedgerTrade[];
  /** What an adopted order had executed (and its quote) before the trades held: the base its later fills count from. */
  readonly adoptedQty: string;
  readonly adoptedQuoteQty: string;
}

/** The ledger's state, as the pure resync functions read it. */
export interface LedgerSnapshot {
  readonly orders: readonly LedgerOrder[];
  /** Highest trade id seen per symbol. */
  readonly highestTradeIds: Readonly<Record<string, string>>;
  /** Assets a balance was seen for. */
  readonly balanceAssets: readonly string[];
}

export interface DroppedEvent {
  readonly event: LiveEvent;
  readonly path: EventPath;
  /** For the journal: "duplicate from <path>: <why>" (or "stale from <path>: ..." for a balance). */
  readonly reason: string;
}

export interface AdmitResult {
  readonly forward: LiveEvent[];
  readonly dropped: DroppedEvent[];
}

export interface SeenLedgerOptions {
  /** How long a closed order is held after it closed, in ms of venue time (default 15 minutes). */
  readonly retainClosedMs?: number;
  /** How many forgotten order ids are remembered (default 10,000). */
  readonly forgottenOrderIds?: number;
}

const ZERO = new D(0);

class Tracked {
  orderId: string | undefined = undefined;
  status: LedgerStatus = 'PENDING_NEW';
  executed: Dec = ZERO;
  working = true;
  readonly trades = new Map<string, LedgerTrade>();
  closedAt: number | undefined = undefined;
  side: OrderSide | undefined = undefined;
  type: OrderType | undefined = undefined;
  quantity: string | undefined = undefined;
  adoptedQty = '0';
  adoptedQuoteQty = '0';

  constructor(
    readonly clientOrderId: string,
    readonly symbol: string,
  ) {}

  /** An answer without trades (a RESULT's FILLED) said more was executed than the fills applied: they are still to come. */
  awaitsFills(): boolean {
    let sum = new D(this.adoptedQty);
    for (const t of this.trades.values()) sum = sum.plus(t.qty);
    return this.executed.gt(sum);
  }

  get final(): boolean {
    return isFinalStatus(this.status);
  }

  copy(): LedgerOrder {
    const trades = [...this.trades.values()].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    return { clientOrderId: this.clientOrderId, symbol: this.symbol, orderId: this.orderId, side: this.side, type: this.type, quantity: this.quantity, status: this.status, executedQty: this.executed.toFixed(), working: this.working, trades, adoptedQty: this.adoptedQty, adoptedQuoteQty: this.adoptedQuoteQty };
  }
}

export class SeenLedger {
  private readonly byClientId = new Map<string, Tracked>();
  private readonly byOrderId = new Map<string, Tracked>();
  private readonly highest = new Map<string, string>();
  private readonly floor = new Map<string, bigint>();
  private readonly forgotten = new Set<string>();
  private readonly balanceTimes = new Map<string, number>();
  private readonly retainClosedMs: number;
  private readonly maxForgotten: number;

  constructor(opts: SeenLedgerOptions = {}) {
    this.retainClosedMs = opts.retainClosedMs ?? 15 * 60_000;
    this.maxForgotten = opts.forgottenOrderIds ?? 10_000;
  }

  /** A place command is about to leave: its events will be expected (PENDING_NEW until acknowledged). */
  placed(cmd: PlaceCommand): void {
    if (this.byClientId.has(cmd.clientOrderId)) return;
    const t = new Tracked(cmd.clientOrderId, cmd.symbol);
    t.side = cmd.side;
    t.type = cmd.type;
    t.quantity = cmd.quantity;
    this.byClientId.set(t.clientOrderId, t);
  }

  /** Forward what is new in `events` (in order), drop the rest with the reason. */
  admit(events: readonly LiveEvent[], path: EventPath): AdmitResult {
    const out: AdmitResult = { forward: [], dropped: [] };
    for (const e of events) {
      const why = this.check(e);
      if (why === undefined) out.forward.push(e);
      else out.dropped.push({ event: e, path, reason: `${e.kind === 'balance' ? 'stale' : 'duplicate'} from ${path}: ${why}` });
    }
    return out;
  }

  /** Highest trade id seen on the symbol, if any. */
  highestTradeId(symbol: string): string | undefined {
    return this.highest.get(symbol);
  }

  /** Trades the resync saw but forwarded nothing for (another client's orders): the next resync starts after them. */
  noteTradeIds(ids: Readonly<Record<string, string>>): void {
    for (const [symbol, id] of Object.entries(ids)) this.noteTrade(symbol, id);
  }

  /** The order as held, by client order id. */
  order(clientOrderId: string): LedgerOrder | undefined {
    return this.byClientId.get(clientOrderId)?.copy();
  }

  /** Whether the order is held, without copying it (the stream's hot path asks for every event). */
  has(clientOrderId: string): boolean {
    return this.byClientId.has(clientOrderId);
  }

  /** Its status, without copying the order. */
  statusOf(clientOrderId: string): LedgerStatus | undefined {
    return this.byClientId.get(clientOrderId)?.status;
  }

  /** How many orders are held (open and recently closed). */
  get size(): number {
    return this.byClientId.size;
  }

  snapshot(): LedgerSnapshot {
    return {
      orders: [...this.byClientId.values()].map((t) => t.copy()),
      highestTradeIds: Object.fromEntries(this.highest),
      balanceAssets: [...this.balanceTimes.keys()],
    };
  }

  /**
   * Forget orders closed at least `retainClosedMs` before `now` (venue time): their trade ids
   * fold into their symbol's floor, their order ids into the bounded forgotten set.
   */
  prune(now: number): void {
    for (const t of this.byClientId.values()) {
      if (t.closedAt === undefined || t.closedAt + this.retainClosedMs > now || t.awaitsFills()) continue;
      this.byClientId.delete(t.clientOrderId);
      if (t.orderId !== undefined) {
        this.byOrderId.delete(t.orderId);
        this.forgotten.add(t.orderId);
        if (this.forgotten.size > this.maxForgotten) this.forgotten.delete(this.forgotten.values().next().value as string);
      }
      for (const id of t.trades.keys()) {
        const n = BigInt(id);
        const f = this.floor.get(t.symbol);
        if (f === undefined || n > f) this.floor.set(t.symbol, n);
      }
    }
  }

  /** The highest trade id of a forgotten order on the symbol (tests, diagnostics). */
  forgottenTradeFloor(symbol: string): string | undefined {
    return this.floor.get(symbol)?.toString();
  }

  private find(clientOrderId: string, orderId: string | undefined): Tracked | undefined {
    return (orderId === undefined ? undefined : this.byOrderId.get(orderId)) ?? this.byClientId.get(clientOrderId);
  }

  private know(t: Tracked, orderId: string): void {
    if (t.orderId === undefined) {
      t.orderId = orderId;
      this.byOrderId.set(orderId, t);
    }
  }

  private noteTrade(symbol: string, id: string): void {
    idBig(id, `${symbol} trade id`);
    const h = this.highest.get(symbol);
    const m = maxId(h, id) as string;
    if (m !== h) this.highest.set(symbol, m);
  }

  private close(t: Tracked, time: number): void {
    if (t.final && t.closedAt === undefined) t.closedAt = time;
  }

  /** Why `e` is not forwarded (and the state it moves otherwise). */
  private check(e: LiveEvent): string | undefined {
    switch (e.kind) {
      case 'balance':
        return this.checkBalance(e);
      case 'fill':
        return this.checkFill(e);
      case 'order':
        return this.checkOrder(e);
      case 'adopt':
        return this.checkAdopt(e);
      case 'rejected': {
        const t = this.byClientId.get(e.clientOrderId);
        if (t === undefined) return undefined;
        if (t.status !== 'PENDING_NEW' && t.status !== 'UNKNOWN') return `rejection of ${e.clientOrderId}, already ${t.status}`;
        t.status = 'REJECTED';
        this.close(t, e.time);
        return undefined;
      }
      case 'unknownOutcome': {
        const t = this.byClientId.get(e.clientOrderId);
        if (e.command === 'place' && t?.status === 'PENDING_NEW') t.status = 'UNKNOWN';
        return undefined;
      }
      case 'cancelRejected':
        return undefined;
    }
  }

  private checkBalance(e: VenueBalanceEvent): string | undefined {
    const last = this.balanceTimes.get(e.asset);
    if (last !== undefined && e.time < last) return `balance of ${e.asset} at ${e.time}, older than the one applied (${last})`;
    this.balanceTimes.set(e.asset, e.time);
    return undefined;
  }

  private checkFill(e: VenueFillEvent): string | undefined {
    const n = idBig(e.tradeId, 'fill.tradeId');
    const t = this.find(e.clientOrderId, e.orderId);
    if (t === undefined) {
      const f = this.floor.get(e.symbol);
      if (f !== undefined && n <= f) return `trade ${e.tradeId} of ${e.symbol} is at or below the highest trade of a forgotten order (${f})`;
      this.noteTrade(e.symbol, e.tradeId);
      return undefined;
    }
    if (t.trades.has(e.tradeId)) return `trade ${e.tradeId} of order ${e.orderId} (${t.clientOrderId}) already applied`;
    t.trades.set(e.tradeId, { id: e.tradeId, qty: e.qty, quoteQty: e.quoteQty });
    this.know(t, e.orderId);
    this.noteTrade(e.symbol, e.tradeId);
    t.working = true;
    const cum = new D(e.cumulativeQty);
    if (cum.gt(t.executed)) t.executed = cum;
    if (!t.final && statusRank(e.orderStatus) >= statusRank(t.status)) t.status = e.orderStatus;
    this.close(t, e.time);
    return undefined;
  }

  private checkOrder(e: VenueOrderEvent): string | undefined {
    const t = this.find(e.clientOrderId, e.orderId);
    if (t === undefined) return this.forgotten.has(e.orderId) ? `${e.status} of order ${e.orderId}, forgotten after it ended` : undefined;
    const executed = new D(e.executedQty);
    const why = notForward(t, e.status, executed, e.working);
    if (why !== undefined) return why;
    this.know(t, e.orderId);
    t.status = e.status;
    if (executed.gt(t.executed)) t.executed = executed;
    t.working = e.working;
    this.close(t, e.time);
    return undefined;
  }

  private checkAdopt(e: VenueAdoptEvent): string | undefined {
    if (this.find(e.clientOrderId, e.orderId) !== undefined) return `adoption of ${e.clientOrderId}, already held`;
    const t = new Tracked(e.clientOrderId, e.symbol);
    t.side = e.side;
    t.type = e.type;
    t.quantity = e.origQty;
    t.status = e.status;
    t.executed = new D(e.executedQty);
    t.adoptedQty = e.executedQty;
    t.adoptedQuoteQty = e.cumulativeQuoteQty;
    t.working = e.working;
    this.byClientId.set(t.clientOrderId, t);
    this.know(t, e.orderId);
    return undefined;
  }
}

/** Why an order event for `t` does not move it forward; undefined when it does. */
function notForward(t: Tracked, status: VenueOrderStatus, executed: Dec, working: boolean): string | undefined {
  const was = `${t.status} ${t.executed.toFixed()}`;
  if (t.final) return `${status} ${executed.toFixed()} of ${t.clientOrderId}, which already ended ${was}`;
  const to = statusRank(status);
  const from = statusRank(t.status);
  if (to > from) return undefined;
  if (to === from && (executed.gt(t.executed) || (working && !t.working))) return undefined;
  return `${status} ${executed.toFixed()} of ${t.clientOrderId} does not move it on from ${was}`;
}
