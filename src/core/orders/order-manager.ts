/**
 * The order manager: the one place intents become venue commands, shared by backtest, sandbox
 * and live (only the venue behind it changes). Synchronous and venue-agnostic:
 *
 * - `submit(strategy, intents, now)` checks each intent (pre-trade.ts) and returns the commands
 *   to send (place / cancel / cancelReplace, each carrying its deterministic client order id) and
 *   the denials. A denied order is reported back to its strategy as an order update with status
 *   DENIED and the reasons; nothing is thrown. A cancel names the strategy's order by client
 *   order id or by tag (its latest open order with that tag).
 * - `onVenueEvents(events)` applies acknowledgements, rejections, updates, fills (idempotent on
 *   trade id) and balances (apply-venue-events.ts), and returns what each strategy must be told.
 * - `view(strategy)` is what the strategy's context reads: balances, positions with average
 *   entry, and that strategy's own open orders.
 *
 * Apply a venue's events of one operation as one batch before delivering them: the order
 * acknowledgement and the balance change it caused then land together.
 *
 * A new order is first offered to the pre-trade fast path (quick-pre-trade.ts: common order
 * shapes on scaled integers, no Decimal), which only ever approves; anything it does not approve
 * (and every replacement) goes through `preTradeCheck`, the one source of denials and their texts.
 */
import type { Instrument } from '../market/instrument.ts';
import type { MarketContext } from '../market/types.ts';
import type { Dec } from '../money/decimal.ts';
import { D, dec } from '../money/decimal.ts';
import { plainDecimal } from '../money/plain-decimal.ts';
import { AccountState } from './account.ts';
import { applyVenueEvents } from './apply-venue-events.ts';
import { CapitalLedgers } from './capital/capital.ts';
import { CapitalGuard } from './capital/capital-guard.ts';
import type { ApplyContext, ApplyResult } from './apply-venue-events.ts';
import { adoptedFields, adoptRefusal } from './adopt.ts';
import type { AdoptOrder, AdoptResult } from './adopt.ts';
import { ClientOrderIds, parseClientOrderId, runKey } from './client-order-id.ts';
import { parsedDecimal } from './decimal-cache.ts';
import { ManagedOrder } from './managed-order.ts';
import { reduceOrder } from './order-state.ts';
import { OrderRegistry } from './order-registry.ts';
import { preTradeCheck, violationText } from './pre-trade/pre-trade.ts';
import type { CapitalLimit } from './pre-trade/pre-trade.ts';
import { quickPreTrade } from './pre-trade/quick-pre-trade.ts';
import type { PreTradeViolation } from './pre-trade/pre-trade.ts';
import type { OrderManagerOptions, SubmitResult } from './order-manager-types.ts';
import { remainingReserve } from './pre-trade/reserve.ts';
import type { Reserve } from './pre-trade/reserve.ts';
import type { OrderFields, OrderIntent, OrderTarget, StateView } from './types.ts';
import type { PlaceCommand, VenueEvent } from './venue-messages.ts';

export type { Denial, MarketRefs, OrderManagerOptions, SubmitResult } from './order-manager-types.ts';

const ZERO = new D(0);
const NO_VIOLATIONS: readonly PreTradeViolation[] = Object.freeze([]);

interface LastPrice {
  readonly symbol: string;
  text: string;
  /** The text `value` was parsed from (undefined: none yet). */
  parsedText: string | undefined;
  value: Dec | undefined;
}

const targetText = (t: OrderTarget) => (t.clientOrderId !== undefined ? `client order id ${t.clientOrderId}` : `tag '${t.tag ?? ''}'`);
const plain = (message: string): PreTradeViolation => ({ check: 'rule', code: 'order-target', message, detail: '' });

export class OrderManager implements ApplyContext {
  readonly account: AccountState;
  readonly orders: OrderRegistry;
  /** Per-strategy capital (the `capital` option); undefined: the shared account alone. */
  readonly capital: CapitalLedgers | undefined;
  private readonly guard: CapitalGuard | undefined;
  private readonly ids: ClientOrderIds;
  private readonly instrumentOf: (symbol: string) => Instrument | undefined;
  /** By symbol: the last price as set, and the Decimal of the text it was last parsed from. */
  private readonly lastPrices = new Map<string, LastPrice>();
  /** The entry set last: a bar loop sets the same symbol's price every bar. */
  private lastSet: LastPrice | undefined;
  private readonly views = new Map<string, StateView>();
  /** The pre-trade context, reused by every check. */
  private preTrade:
    | { instrument: Instrument | undefined; market: MarketContext; available(asset: string): Dec; capital: ((asset: string) => CapitalLimit) | undefined; readonly requireComplete: boolean | undefined }
    | undefined;
  /** The strategy placing and the order it replaces, during a check under per-strategy capital. */
  private placing: { strategy: string; replacing: ManagedOrder | undefined } = { strategy: '', replacing: undefined };
  /** The fast path's context, reused by every check. */
  private quickCtx: { openOrders: number; lastText: string | undefined; freeText(asset: string): string | undefined } | undefined;
  /** What the order being replaced releases, during its replacement's check. */
  private credit: Reserve | undefined;

  constructor(private readonly opts: OrderManagerOptions) {
    this.account = new AccountState(opts.balances);
    this.orders = new OrderRegistry(opts.retainClosed);
    this.ids = new ClientOrderIds(opts.runId, opts.sequenceStart);
    this.capital = opts.capital === undefined ? undefined : new CapitalLedgers(opts.capital);
    this.guard = this.capital === undefined ? undefined : new CapitalGuard(this.capital, this);
    if (this.capital !== undefined && opts.balances !== undefined) {
      const over = this.capital.overAllocated((asset) => this.account.totalOf(asset));
      if (over.length) throw new RangeError(`capital: ${over.map((o) => `${o.asset} allocated ${o.allocated}, the account holds ${o.account}`).join('; ')}`);
    }
    if (typeof opts.instruments === 'function') this.instrumentOf = opts.instruments;
    else {
      // A fixed set: the symbol asked for last is remembered (a strategy's context asks every bar).
      const map = new Map([...opts.instruments].map((i) => [i.symbol, i] as const));
      let lastSymbol: string | undefined;
      let last: Instrument | undefined;
      this.instrumentOf = (s) => {
        if (s !== lastSymbol) {
          last = map.get(s);
          lastSymbol = s;
        }
        return last;
      };
    }
  }

  instrument(symbol: string): Instrument | undefined {
    return this.instrumentOf(symbol);
  }

  /** The market's last price (a bar close, a trade): the reference for market-sized orders. */
  setLastPrice(symbol: string, price: string): void {
    // Only stored: the text is compared with the one last parsed when the price is read (an order),
    // not on every bar.
    const hit = this.lastSet;
    if (hit !== undefined && hit.symbol === symbol) {
      hit.text = price;
      return;
    }
    let entry = this.lastPrices.get(symbol);
    if (entry === undefined) this.lastPrices.set(symbol, (entry = { symbol, text: price, parsedText: undefined, value: undefined }));
    else entry.text = price;
    this.lastSet = entry;
  }

  lastPrice(symbol: string): Dec | undefined {
    const p = this.lastPrices.get(symbol);
    if (p === undefined) return undefined;
    if (p.parsedText !== p.text || p.value === undefined) {
      p.value = plainDecimal(p.text) ?? dec(p.text, 'last price');
      p.parsedText = p.text;
    }
    return p.value;
  }

  submit(strategy: string, intents: readonly OrderIntent[], now: number = this.opts.now()): SubmitResult {
    const out: SubmitResult = { commands: [], denials: [] };
    for (const intent of intents) {
      if (intent.kind === 'place') this.placeIntent(strategy, intent, now, out);
      else if (intent.kind === 'cancel') this.cancel(strategy, intent, now, out);
      else this.replace(strategy, intent, now, out);
    }
    return out;
  }

  onVenueEvents(events: readonly VenueEvent[]): ApplyResult {
    // The manager is the ApplyContext (orders, account, instrument, setLastPrice): no object
    // literal holding them (docs/architecture.md, "Objects made once per run").
    return applyVenueEvents(this, events);
  }

  onVenueEvent(event: VenueEvent): ApplyResult {
    return this.onVenueEvents([event]);
  }

  /**
   * Take in an order of `strategy` this manager did not place (adopt.ts: placed before a restart,
   * found at the venue or in the journal), at the progress reported. Not taken when it is held
   * already or its state or amounts do not hold; throws as `view` does when the strategy's ids
   * could be another's. An id of this run's own sequence is never handed out again.
   */
  adopt(strategy: string, order: AdoptOrder): AdoptResult {
    const cid = order.clientOrderId;
    if (this.orders.get(cid) !== undefined) return { taken: false, reason: `${cid} is held already` };
    const why = adoptRefusal(order);
    if (why !== undefined) return { taken: false, reason: `${cid}: ${why}` };
    this.ids.register(strategy);
    const parsed = parseClientOrderId(cid);
    if (parsed !== undefined && parsed.key === runKey(this.opts.runId, strategy)) this.ids.skipPast(strategy, parsed.tag, parsed.seq);
    const o = new ManagedOrder(strategy, order.symbol, cid, adoptedFields(order), order.time, this.orders.nextSeq(), order.status);
    o.orderId = order.orderId;
    o.working = order.working;
    const executed = parsedDecimal(order.executedQty.trim());
    o.apply({ status: order.status, resume: undefined, executedQty: executed });
    o.executedFrom(order.executedQty, executed);
    o.setCumQuoteText(order.cumulativeQuoteQty);
    this.orders.add(o);
    return { taken: true, update: o.update(this.opts.now(), `adopted at ${order.status}: placed before this order manager started`) };
  }

  /** What `strategy`'s context reads. Throws a RangeError when its client order ids could be another strategy's (ClientOrderIds.register). */
  view(strategy: string): StateView {
    let v = this.views.get(strategy);
    if (!v) {
      this.ids.register(strategy);
      const now = this.opts.now;
      // The strategy's own positions (account.ts): kept here, no lookup per read (its context reads every bar).
      const held = this.account.holdingsOf(strategy);
      v = Object.freeze({
        now: () => now(),
        instrument: (symbol: string) => this.instrumentOf(symbol),
        balances: this.capital?.has(strategy) ? () => (this.guard as CapitalGuard).balances(strategy) : () => this.account.balances(),
        position: (symbol: string) => held.position(symbol),
        openOrders: (symbol?: string) => this.orders.view(strategy, symbol),
      });
      this.views.set(strategy, v);
    }
    return v;
  }

  private market(symbol: string, leaving?: ManagedOrder): MarketContext {
    const { orders, algoOrders } = this.orders.counts(symbol);
    const gone = leaving && leaving.symbol === symbol;
    const lastPrice = this.lastPrice(symbol);
    const openOrders = orders - (gone ? 1 : 0);
    const openAlgoOrders = algoOrders - (gone && leaving.isAlgoWaiting ? 1 : 0);
    const refs = this.opts.marketRefs;
    // Same keys, same order as the spread below; built directly when there are no reference prices (a backtest).
    if (refs === undefined) return { lastPrice, openOrders, openAlgoOrders };
    return { ...refs(symbol), lastPrice, openOrders, openAlgoOrders };
  }

  /** Free minus what pending orders reserve, plus what a replaced order releases (`credit`, set per check). */
  private available(asset: string): Dec {
    const credit = this.credit;
    const free = this.account.freeOf(asset);
    const reserved = this.orders.reserved(asset);
    // Nothing reserved and no credit (the usual case): free itself. Decimal's `- 0 + 0` only rounds to
    // 40 significant digits, a no-op for at most 5 words (35 digits).
    if (reserved.isZero() && credit?.asset !== asset && !free.isZero() && free.d.length <= 5) return free;
    return free.minus(reserved).plus(credit?.asset === asset ? credit.amount : ZERO);
  }

  private place(strategy: string, intent: OrderIntent, fields: OrderFields, now: number, out: SubmitResult, replacing?: ManagedOrder): ManagedOrder | undefined {
    const sym = intent.symbol;
    const cid = this.ids.next(strategy, fields.tag);
    const inst = this.instrumentOf(sym);
    let violations: readonly PreTradeViolation[];
    let reserve: Reserve | undefined;
    // The fast path knows only the account: with per-strategy capital every order takes the general check.
    if (replacing === undefined && inst !== undefined && this.guard === undefined && (reserve = this.quick(sym, fields, inst)) !== undefined) violations = NO_VIOLATIONS;
    else {
      this.credit = replacing && inst ? remainingReserve(inst, replacing.fields, replacing.executedQty, replacing.cumQuote, this.lastPrice(sym)) : undefined;
      // One context object, reused: no closure per order (the check is synchronous).
      // Made holding no instrument (set just below): docs/architecture.md, "Objects made once per run".
      const pc = (this.preTrade ??= {
        instrument: undefined,
        market: {},
        available: (asset: string) => this.available(asset),
        capital: this.guard === undefined ? undefined : (asset: string) => (this.guard as CapitalGuard).limit(this.placing.strategy, asset, this.available(asset), this.placing.replacing),
        requireComplete: this.opts.requireCompleteChecks,
      });
      pc.instrument = inst;
      this.placing.strategy = strategy;
      this.placing.replacing = replacing;
      pc.market = this.market(sym, replacing);
      const check = preTradeCheck(sym, fields, pc);
      this.credit = undefined;
      this.placing.replacing = undefined;
      violations = check.ok ? [] : check.violations;
      if (check.ok) reserve = check.reserve;
    }
    const o = new ManagedOrder(strategy, sym, cid, fields, now, this.orders.nextSeq(), violations.length ? 'DENIED' : 'PENDING_NEW');
    o.reserve = reserve;
    this.orders.add(o);
    if (violations.length) {
      const reasons = violations.map((v) => (v.detail ? violationText(v) : v.message));
      // A refused replacement leaves the order it was to replace open: the update says so, since a
      // strategy that follows its orders by tag would otherwise take the slot for empty.
      const said = replacing === undefined ? reasons.join('; ') : `${reasons.join('; ')} (replacement of ${replacing.clientOrderId} refused: that order stays open)`;
      out.denials.push({ strategy, symbol: sym, intent, tag: fields.tag, clientOrderId: cid, reasons, violations, time: now, update: o.update(now, said) });
      return undefined;
    }
    return o;
  }

  /**
   * The fast path's approval (quick-pre-trade.ts): the order's reserve, or undefined when the
   * general check must answer. Nothing else may claim the funds it compares with (no pending
   * reserve of the asset; a replacement's credit never comes here).
   */
  private quick(sym: string, fields: OrderFields, inst: Instrument): Reserve | undefined {
    const q = (this.quickCtx ??= {
      openOrders: 0,
      lastText: undefined,
      freeText: (asset: string) => (this.orders.reserving(asset) ? undefined : this.account.freeTextOf(asset)),
    });
    q.openOrders = this.orders.openOn(sym);
    q.lastText = this.lastPrices.get(sym)?.text;
    return quickPreTrade(sym, fields, inst, q);
  }

  private command(o: ManagedOrder): PlaceCommand {
    const f = o.fields;
    // Optional fields only when present, in this order (assigned, not spread: one per order placed).
    const cmd: { -readonly [K in keyof PlaceCommand]: PlaceCommand[K] } = { kind: 'place', symbol: o.symbol, clientOrderId: o.clientOrderId, side: f.side, type: f.type };
    if (f.quantity !== undefined) cmd.quantity = f.quantity;
    if (f.quoteOrderQty !== undefined) cmd.quoteOrderQty = f.quoteOrderQty;
    if (f.price !== undefined) cmd.price = f.price;
    if (f.stopPrice !== undefined) cmd.stopPrice = f.stopPrice;
    if (f.timeInForce !== undefined) cmd.timeInForce = f.timeInForce;
    return Object.freeze(cmd);
  }

  private resolve(strategy: string, t: OrderTarget): ManagedOrder | undefined {
    if (t.clientOrderId !== undefined) {
      const o = this.orders.get(t.clientOrderId);
      return o && o.strategy === strategy && o.symbol === t.symbol && o.isOpen ? o : undefined;
    }
    return t.tag === undefined ? undefined : this.orders.byTag(strategy, t.symbol, t.tag);
  }

  /** Move `o` to PENDING_CANCEL; the refusal text when it cannot be cancelled. */
  private requestCancel(o: ManagedOrder): string | undefined {
    const r = reduceOrder(o, { kind: 'cancelRequested' });
    if (r.kind !== 'applied') return r.kind === 'illegal' ? `cannot cancel ${o.clientOrderId}: ${r.reason}` : undefined;
    o.apply(r.next);
    this.orders.changed(o);
    return undefined;
  }

  private cancel(strategy: string, intent: OrderIntent & OrderTarget, now: number, out: SubmitResult): void {
    const o = this.resolve(strategy, intent);
    const refusal = o ? this.requestCancel(o) : `no open order with ${targetText(intent)} on ${intent.symbol}`;
    if (refusal !== undefined || !o) {
      const reasons = [refusal ?? 'nothing to cancel'];
      out.denials.push({ strategy, symbol: intent.symbol, intent, tag: intent.tag, clientOrderId: intent.clientOrderId, reasons, violations: reasons.map(plain), time: now });
      return;
    }
    out.commands.push(Object.freeze({ kind: 'cancel', symbol: o.symbol, clientOrderId: o.clientOrderId }));
  }

  private replace(strategy: string, intent: Extract<OrderIntent, { kind: 'cancelReplace' }>, now: number, out: SubmitResult): void {
    const old = this.resolve(strategy, intent);
    let refusal = old ? undefined : `no open order with ${targetText(intent)} on ${intent.symbol} to replace`;
    if (old && (old.status === 'PENDING_CANCEL' || !old.isOpen)) refusal = `cannot replace ${old.clientOrderId}: it is ${old.status}`;
    if (refusal !== undefined) {
      // As a refused cancel: no order is concerned (none is made up to be DENIED), so the strategy
      // hears of it through onDenial, and no client order id is spent.
      out.denials.push({ strategy, symbol: intent.symbol, intent, tag: intent.tag, clientOrderId: intent.clientOrderId, reasons: [refusal], violations: [plain(refusal)], time: now });
      return;
    }
    const fresh = this.place(strategy, intent, intent.order, now, out, old);
    if (!fresh || !old) return;
    const r = this.requestCancel(old);
    if (r !== undefined) throw new Error(`order manager: ${r}`); // checked above; a failure here is a bug
    out.commands.push(Object.freeze({ kind: 'cancelReplace', symbol: old.symbol, cancelClientOrderId: old.clientOrderId, order: this.command(fresh) }));
  }

  private placeIntent(strategy: string, intent: Extract<OrderIntent, { kind: 'place' }>, now: number, out: SubmitResult): void {
    // The intent is its own OrderFields (every reader takes the fields by name): no copy without kind and symbol.
    const o = this.place(strategy, intent, intent, now, out);
    if (o) out.commands.push(this.command(o));
  }
}
