/**
 * StrategyHarness: drive a strategy by hand in a test, on the real engine: the strategy's runner
 * inside the Kernel, the OrderManager's pre-trade checks (filters, balances: a test can see a
 * DENIED order), and the simulated venue's matching engine (sim-venue.ts), the one code path of
 * backtest, sandbox and live. Only the driving differs from a backtest: commands are executed at
 * once, at the market's current price, instead of at the next bar's open.
 *
 * - `bar(candle)` plays the bar's path against resting orders (fill-model.ts), then delivers the
 *   closed bar (clock = closeTime + 1); the market price is then its close.
 * - `bookTop(top)` moves the market price to the mid; `trade(t)` prints a public trade (it fills
 *   resting orders it reaches, up to its quantity).
 * - `fill(tag)` makes the market trade at a resting order's price (touch), up to its remaining
 *   quantity (or `qty`): like a real trade there, a better-priced order of the same side fills
 *   first. MARKET orders fill at the market price (the last close, mid, trade or fill price).
 * Each call returns every intent the strategy returned while it ran (reactions to fills and
 * denials included); `intents`, `fills`, `denials`, `failures`, `logs` and `notes` keep the history.
 * Fees default to zero so expectations stay round; pass `fees` for the real ones.
 */
import type { Candle } from '../../core/indicators/candle.ts';
import type { Instrument } from '../../core/market/instrument.ts';
import type { FeeRates } from '../../core/matching/index.ts';
import { D, dec, toWire } from '../../core/money/decimal.ts';
import { OrderManager } from '../../core/orders/index.ts';
import type { Denial } from '../../core/orders/index.ts';
import type { FillOut } from '../../core/orders/types.ts';
import { resolveFillModel } from '../../backtest/run/fill-model.ts';
import type { FillModel } from '../../backtest/run/fill-model.ts';
import { BarPlayer, kernelTimers, SimClock } from '../../backtest/run/play-bar.ts';
import { SimVenue } from '../../backtest/run/sim-venue.ts';
import { Kernel } from '../../engine/kernel.ts';
import type { AnyStrategyDefinition } from '../define.ts';
import type { Intent } from '../intents/intents.ts';
import type { AnyStrategyRunner } from '../runner.ts';
import type { Amount, BookTopInput, Interval, StrategyFailure, StrategyLogEntry, TradeInput } from '../types.ts';
import { HarnessView } from './harness-view.ts';
import { paper } from './paper-order.ts';
import type { PaperOrder } from './paper-order.ts';

export type { PaperOrder };
import { testInstrument } from './test-instrument.ts';

export interface HarnessOptions {
  readonly params?: unknown;
  /** Default: [testInstrument()] (BTCPHP). */
  readonly instruments?: readonly Instrument[];
  /** asset -> free amount. */
  readonly balances?: Readonly<Record<string, Amount>>;
  /** Clock at construction; default 0. */
  readonly now?: number;
  /** Maker / taker rates; default zero. */
  readonly fees?: FeeRates;
  readonly fillModel?: FillModel;
}

export interface RecordedIntent {
  readonly time: number;
  readonly intent: Intent;
}

export class StrategyHarness {
  readonly view: HarnessView;
  readonly runner: AnyStrategyRunner;
  readonly orders: OrderManager;
  readonly venue: SimVenue;
  readonly failures: StrategyFailure[] = [];
  readonly logs: StrategyLogEntry[] = [];
  /** Every intent the strategy returned, in order. */
  readonly intents: RecordedIntent[] = [];
  readonly fills: FillOut[] = [];
  readonly denials: Denial[] = [];
  /** Cancels that found no order, and the like (denials with no order to report them on). */
  readonly notes: string[] = [];
  private readonly clock = new SimClock();
  private readonly kernel: Kernel;
  private readonly players = new Map<string, BarPlayer>();
  private readonly lastOpen = new Map<string, number>();
  private readonly prices = new Map<string, string>();
  private readonly symbols: readonly string[];
  private collecting: Intent[] | undefined;
  private tradeSeq = 0;

  constructor(definition: AnyStrategyDefinition, private readonly options: HarnessOptions = {}) {
    const instruments = options.instruments ?? [testInstrument()];
    const balances: Record<string, string> = {};
    for (const [asset, amount] of Object.entries(options.balances ?? {})) balances[asset] = toWire(amount);
    this.clock.t = options.now ?? 0;
    this.symbols = instruments.map((i) => i.symbol);
    this.orders = new OrderManager({ runId: 'harness', now: this.clock.now, instruments, balances });
    const model = resolveFillModel(options.fillModel);
    this.venue = new SimVenue({ instruments, fees: options.fees ?? { maker: '0', taker: '0' }, balances, slippageBps: model.slippageBps, limitFill: model.limitFill });
    this.kernel = new Kernel({
      orders: this.orders,
      venue: this.venue,
      clock: this.clock,
      onIntents: (_s, intents, time, origin) => {
        if (origin !== 'strategy') return;
        for (const intent of intents as readonly Intent[]) {
          this.intents.push({ time, intent });
          this.collecting?.push(intent);
        }
      },
      onDenial: (d) => {
        this.denials.push(d);
        if (!d.update) this.notes.push(...d.reasons);
      },
      onFill: (_s, f) => this.fills.push(f),
      onFailure: (f) => this.failures.push(f),
      onLog: (e) => this.logs.push(e),
    });
    this.runner = this.kernel.addStrategy(definition, options.params);
    this.view = new HarnessView(this.clock, this.orders, this.runner.name);
    // Base held at the start is the position (entry unknown: tests say it with view.setPosition).
    for (const i of instruments) {
      const held = this.orders.account.totalOf(i.baseAsset);
      if (held.gt(0)) this.orders.account.setPosition(i.symbol, held);
    }
  }

  get symbol(): string {
    return this.runner.setup.symbols[0] as string;
  }

  start(): readonly Intent[] {
    return this.act(() => this.kernel.start());
  }

  stop(reason?: string): readonly Intent[] {
    return this.act(() => this.kernel.stop(reason));
  }

  /** Play a bar's path against resting orders, then deliver it closed (clock = closeTime + 1). */
  bar(candle: Candle, symbol = this.symbol, interval: Interval = this.runner.setup.intervals[0] as Interval): readonly Intent[] {
    return this.act(() => {
      if (candle.openTime > (this.lastOpen.get(symbol) ?? -Infinity)) {
        this.lastOpen.set(symbol, candle.openTime);
        this.clock.t = Math.max(this.clock.t, candle.openTime);
        this.player(symbol).play(candle);
      }
      this.clock.t = Math.max(this.clock.t, candle.closeTime + 1);
      this.market(symbol, candle.exact.close);
      this.kernel.bar(symbol, interval, candle);
      this.kernel.timer(this.clock.t);
    });
  }

  /** Deliver bars in order; returns every intent they produced. */
  bars(candles: Iterable<Candle>, symbol = this.symbol, interval?: Interval): readonly Intent[] {
    const out: Intent[] = [];
    for (const c of candles) out.push(...this.bar(c, symbol, interval));
    return out;
  }

  bookTop(top: Omit<BookTopInput, 'time' | 'symbol'> & { symbol?: string; time?: number }): readonly Intent[] {
    const symbol = top.symbol ?? this.symbol;
    return this.act(() => {
      if (top.time !== undefined) this.clock.t = Math.max(this.clock.t, top.time);
      this.market(symbol, toWire(new D(top.bidPrice).plus(top.askPrice).div(2)));
      this.kernel.bookTop({ ...top, symbol, time: top.time ?? this.clock.t });
    });
  }

  /** A public trade: it fills resting orders it reaches (up to its quantity), then reaches the strategy. */
  trade(trade: Omit<TradeInput, 'time' | 'symbol' | 'id' | 'buyerIsMaker'> & Partial<TradeInput>): readonly Intent[] {
    const symbol = trade.symbol ?? this.symbol;
    return this.act(() => {
      if (trade.time !== undefined) this.clock.t = Math.max(this.clock.t, trade.time);
      this.venue.print(symbol, this.clock.t, trade.price, trade.qty);
      this.market(symbol, trade.price);
      this.kernel.trade({ symbol, id: String(++this.tradeSeq), time: this.clock.t, buyerIsMaker: false, ...trade });
    });
  }

  /** Move the clock and fire the timer if due. */
  advance(ms: number): readonly Intent[] {
    return this.act(() => {
      this.clock.t += ms;
      this.kernel.timer(this.clock.t);
    });
  }

  /**
   * The declared series of `symbol` still short of their warm-up (`warmup`, a number or per
   * interval), with what each needs and has: empty once it is warm. With a warmup per interval,
   * onBar of the symbol runs only then (feed the longer interval's bars with `bar(c, symbol, '1h')`).
   */
  warmupShort(symbol = this.symbol): { interval: Interval; needs: number; has: number }[] {
    return this.runner.warmupShort(symbol);
  }

  /** Open orders, oldest first. */
  openOrders(): readonly PaperOrder[] {
    return [...this.orders.orders.openOrders(this.runner.name)].map(paper);
  }

  /** The open order with this tag (the latest) or client order id. */
  order(ref: string): PaperOrder | undefined {
    const all = this.openOrders();
    return all.find((o) => o.clientOrderId === ref) ?? all.filter((o) => o.tag === ref).at(-1);
  }

  /** The market trades at a resting order's price (touch), for its remaining quantity or `qty`. */
  fill(ref: string, opts: { qty?: Amount; price?: Amount } = {}): readonly Intent[] {
    const o = this.order(ref);
    if (!o) throw new Error(`no resting order '${ref}' (resting: ${this.openOrders().map((x) => x.tag ?? x.clientOrderId).join(', ') || 'none'})`);
    const price = opts.price ?? o.price ?? o.stopPrice;
    if (price === undefined) throw new Error(`order '${ref}' has no price: pass one`);
    const qty = opts.qty === undefined ? dec(o.quantity).minus(o.executedQty) : dec(opts.qty);
    return this.act(() => {
      this.venue.print(o.symbol, this.clock.t, toWire(price), toWire(qty), 'touch');
      this.market(o.symbol, toWire(price));
    });
  }

  private player(symbol: string): BarPlayer {
    let p = this.players.get(symbol);
    // Timers fire at their due times inside a bar, as in runBacktest (play-bar.ts).
    if (!p) this.players.set(symbol, (p = new BarPlayer(this.venue, this.clock, symbol, resolveFillModel(this.options.fillModel), kernelTimers(this.kernel))));
    return p;
  }

  private market(symbol: string, price: string): void {
    this.prices.set(symbol, price);
    this.orders.setLastPrice(symbol, price);
  }

  /** Run `fn`, then execute what it sent at the current prices until nothing is queued; collect the intents. */
  private act(fn: () => void): readonly Intent[] {
    const out: Intent[] = [];
    const outer = this.collecting;
    this.collecting = out;
    try {
      fn();
      for (let i = 0; i < 100 && this.venue.queued > 0; i++) {
        for (const s of this.symbols) this.venue.flush(s, this.clock.t, this.prices.get(s));
      }
    } finally {
      this.collecting = outer;
    }
    outer?.push(...out);
    return out;
  }
}
