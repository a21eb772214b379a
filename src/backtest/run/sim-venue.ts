/**
 * The simulated venue: the venue port (ports/venue.ts) over the pure SpotEngine, the same
 * matcher, filters and funds rules the sandbox exchange runs. Synchronous and deterministic
 * (counting order and trade ids, no clock of its own).
 *
 * Commands are queued by `send` and executed by `flush(symbol, time, price)`, at the next price
 * the market shows (the backtest loop flushes at each point of a bar's path, so an order sent at
 * bar N's close reaches the venue at bar N+1's open; fill-model.ts). At a flush, MARKET orders
 * take the outside liquidity at `price` moved against them by `slippageBps`; other marketable
 * orders fill as takers at `price`; the rest rest on the book. `print` is an outside trade: it
 * fills resting LIMIT orders it reaches ('through' or 'touch'), sets the last price and
 * triggers stops. A triggered stop-market (STOP_LOSS, TAKE_PROFIT) pays the slippage as a MARKET
 * order does, on the price that triggered it; only its own fill moves (the last price and every
 * other order's fill stay at the print). `capFills` caps what all fills take from the outside
 * liquidity until it is called again (the bar's volume share). cancelReplace runs as a cancel
 * then, only if it succeeded, a place (notes 6, STOP_ON_FAILURE), both at the flush's price.
 *
 * Events: the engine streams the account's execution reports and balances as venue events while
 * it runs (core/matching/accounts/account-stream.ts, the same events toVenueEvents makes of EngineEvents,
 * which it does not build); each engine operation's events go to the sink as one batch.
 *
 * Idle bars cost nothing: with no open order and no queued command `idle` only records the
 * price; it becomes the engine's last price (an outside print, with nothing to fill) just before
 * the next command runs, which is exactly what printing it at once would have done.
 */
import type { Instrument } from '../../core/market/index.ts';
import { AccountStream, SpotEngine } from '../../core/matching/index.ts';
import type { FeeRates, NewOrderRequest, StopPrices } from '../../core/matching/index.ts';
import { D, dec } from '../../core/money/decimal.ts';
import { Balances } from '../../core/portfolio/balances.ts';
import type { PlaceCommand, VenueCommand, VenueEventSink, VenuePort } from '../../ports/venue.ts';

export interface SimVenueOptions {
  readonly instruments: Iterable<Instrument>;
  readonly fees: FeeRates;
  /** Starting free balances of the account, by asset. */
  readonly balances: Readonly<Record<string, string>>;
  /** Adverse move of MARKET and triggered stop-market order prices, in basis points (default 0). */
  readonly slippageBps?: number;
  /** How a print fills resting LIMIT orders (default 'through'). */
  readonly limitFill?: 'through' | 'touch';
  /** Closed orders and trades the engine keeps per symbol (default 1000). */
  readonly retain?: number;
}

export const SIM_ACCOUNT = 'backtest';

/** `price` moved against a taker by `slip` (a fraction): up for a BUY, down for a SELL (the engine rounds onto the tick against it). */
function slipped(price: string, buy: boolean, slip: InstanceType<typeof D>): string {
  const p = dec(price, 'price');
  return (buy ? p.times(slip.plus(1)) : p.times(new D(1).minus(slip))).toFixed();
}
const FEE_ACCOUNT = 'fees';

/** One symbol's state in the venue (a class, as are its parts: docs/architecture.md, "Objects made once per run"). */
class Market {
  /** Whether `idlePrice` / `idleTime` hold a price recorded by `idle`, not yet given to the engine. */
  idle = false;
  idlePrice = '';
  idleTime = 0;

  constructor(readonly symbol: string) {}
}

export class SimVenue implements VenuePort {
  readonly engine: SpotEngine;
  readonly balances: Balances;
  /** Open order ids of the account (every symbol). */
  readonly open = new Set<string>();
  private queue: VenueCommand[] = [];
  private sink: VenueEventSink = () => undefined;
  private readonly markets = new Map<string, Market>();
  /** The market asked for last (a backtest asks for the same one every bar). */
  private lastMarket: Market | undefined;
  private readonly slip: InstanceType<typeof D> | undefined;
  private readonly mode: 'through' | 'touch';
  /** The account's events of the engine operation that just ran. */
  private readonly stream: AccountStream;
  /** The stop prices of the last price slipped for stops (a bar's prints repeat few prices). */
  private stopsAt = '';
  private stopsSlipped: StopPrices | undefined;

  constructor(opts: SimVenueOptions) {
    this.balances = new Balances();
    this.stream = new AccountStream(SIM_ACCOUNT, this.open);
    this.engine = new SpotEngine({
      instruments: opts.instruments,
      defaultFees: opts.fees,
      feeAccountId: FEE_ACCOUNT,
      // Ids above 2^53, as the venue's.
      firstOrderId: 10n ** 18n + 1n,
      firstTradeId: 2n * 10n ** 18n + 1n,
      balances: this.balances,
      retain: opts.retain ?? 1000,
      accountStream: this.stream,
    });
    for (const [asset, amount] of Object.entries(opts.balances)) this.balances.credit(SIM_ACCOUNT, asset, amount);
    const bps = opts.slippageBps ?? 0;
    if (!Number.isFinite(bps) || bps < 0) throw new RangeError(`slippageBps must be >= 0, got ${String(bps)}`);
    this.slip = bps === 0 ? undefined : new D(bps).div(10_000);
    this.mode = opts.limitFill ?? 'through';
  }

  connect(sink: VenueEventSink): void {
    this.sink = sink;
  }

  send(command: VenueCommand): void {
    this.queue.push(command);
  }

  /** Commands waiting for the next flush. */
  get queued(): number {
    return this.queue.length;
  }

  /** True when a bar of `symbol` must be played point by point: orders are open or commands wait. */
  busy(): boolean {
    return this.open.size > 0 || this.queue.length > 0;
  }

  /** Execute the commands queued for `symbol` before this call, at `time`; `price` is the market's (undefined: none). */
  flush(symbol: string, time: number, price: string | undefined): void {
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    let later: VenueCommand[] | undefined;
    for (let i = 0; i < batch.length; i++) {
      const c = batch[i] as VenueCommand;
      if (c.symbol !== symbol) (later ??= []).push(c);
      else this.run(c, time, price);
    }
    // Commands sent while this batch ran go after the ones left for other symbols.
    if (later !== undefined) this.queue = [...later, ...this.queue];
  }

  /** An outside trade at `price` (at most `maxQty` filled); returns the quantity it filled from resting orders. */
  print(symbol: string, time: number, price: string, maxQty?: string, mode: 'through' | 'touch' = this.mode): string {
    this.market(symbol).idle = false;
    const r = this.engine.applyPrint(symbol, { price, time, mode, maxQty, stopPrices: this.stopPrices(symbol, price) });
    this.emit();
    return r.filledQty;
  }

  /**
   * Cap what fills take from the outside liquidity of `symbol`, all of them together (taker fills
   * at a flush, resting orders a print reaches, stops it triggers), until the next call; undefined:
   * no cap. A GTC LIMIT the cap stops short rests with the rest; a MARKET, IOC or FOK order expires it.
   */
  capFills(symbol: string, maxQty: string | undefined): void {
    this.engine.capExternal(symbol, maxQty);
  }

  /** The stop price of the first stop a price moving from `from` to `to` triggers strictly between them, if any. */
  stopBetween(symbol: string, from: string, to: string): string | undefined {
    return this.engine.stopBetween(symbol, from, to);
  }

  /** Record the market's price without a print (nothing is open: nothing could fill). */
  idle(symbol: string, time: number, price: string): void {
    const m = this.market(symbol);
    m.idle = true;
    m.idlePrice = price;
    m.idleTime = time;
  }

  private market(symbol: string): Market {
    const last = this.lastMarket;
    if (last !== undefined && last.symbol === symbol) return last;
    let m = this.markets.get(symbol);
    if (m === undefined) this.markets.set(symbol, (m = new Market(symbol)));
    this.lastMarket = m;
    return m;
  }

  private run(c: VenueCommand, time: number, price: string | undefined): void {
    const m = this.market(c.symbol);
    if (m.idle) {
      m.idle = false;
      this.engine.applyPrint(c.symbol, { price: m.idlePrice, time: m.idleTime, mode: this.mode });
      this.emit();
    }
    if (c.kind === 'place') return this.place(c, time, price);
    const cancelId = c.kind === 'cancel' ? c.clientOrderId : c.cancelClientOrderId;
    const r = this.engine.cancelOrder(SIM_ACCOUNT, c.symbol, { clientOrderId: cancelId }, time);
    if (r.ok) this.emit();
    else this.sink([{ kind: 'cancelRejected', symbol: c.symbol, clientOrderId: cancelId, code: r.code, reason: r.msg, time }]);
    if (c.kind !== 'cancelReplace') return;
    if (r.ok) this.place(c.order, time, price);
    else this.sink([{ kind: 'rejected', symbol: c.symbol, clientOrderId: c.order.clientOrderId, code: -1132, reason: `Order cancel-replace failed. (cancel: ${r.msg})`, time }]);
  }

  private place(c: PlaceCommand, time: number, price: string | undefined): void {
    // The command is the request (its fields are the request's, plus `kind`): no copy per order.
    const req: NewOrderRequest = c;
    const r = this.engine.placeOrder(SIM_ACCOUNT, req, time, price === undefined ? {} : { externalPrice: this.priceFor(c, price), stopPrices: this.stopPrices(c.symbol, price) });
    if (r.ok) this.emit();
    else this.sink([{ kind: 'rejected', symbol: c.symbol, clientOrderId: c.clientOrderId, code: r.code, reason: r.msg, time }]);
  }

  /** MARKET orders pay the slippage; the engine rounds an off-tick price against the taker. */
  private priceFor(c: PlaceCommand, price: string): string {
    if (this.slip === undefined || c.type !== 'MARKET') return price;
    return slipped(price, c.side === 'BUY', this.slip);
  }

  /** With slippage, where stop-market orders triggered at `price` fill (none when no stop waits). */
  private stopPrices(symbol: string, price: string): StopPrices | undefined {
    if (this.slip === undefined || this.engine.waitingStops(symbol) === 0) return undefined;
    if (this.stopsAt !== price || this.stopsSlipped === undefined) {
      this.stopsAt = price;
      this.stopsSlipped = { BUY: slipped(price, true, this.slip), SELL: slipped(price, false, this.slip) };
    }
    return this.stopsSlipped;
  }

  /** Deliver the events the engine streamed during the operation that just ran. */
  private emit(): void {
    const out = this.stream.take();
    if (out.length !== 0) this.sink(out);
  }
}
