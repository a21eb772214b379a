/**
 * The trading kernel: one code path from market data to venue commands, the same in backtest,
 * sandbox and live (design rule 1); only the composition picks the venue behind the port and the
 * clock. It hosts StrategyRunners, turns their intents into commands through the OrderManager's
 * pre-trade checks, sends them to the venue, applies the venue's event batches to the order
 * manager and tells each strategy about its own orders (denials included, as DENIED updates).
 *
 * Synchronous and re-entrancy safe: work (intents to submit, venue batches to apply) goes through
 * one FIFO queue drained in place, so a strategy reacting to a fill never runs inside another
 * strategy's handler, and the order of everything is deterministic.
 *
 * A strategy that fails (throws, returns garbage: the runner reports it) is stopped; by default
 * its open orders are cancelled and the others carry on. A strategy that keeps answering its own
 * events with intents (more than `maxRounds` in one drain: place, denied, place...) fails too.
 */
import type { Candle } from '../core/indicators/candle.ts';
import type { Denial, OrderIssue, OrderManager } from '../core/orders/index.ts';
import type { CancelOrderIntent, CancelReplaceOrderIntent, FillOut, OrderIntent, OrderUpdateOut, StrategyEvent } from '../core/orders/types.ts';
import type { VenueCommand, VenueEvent, VenuePort } from '../ports/venue.ts';
import type { AnyStrategyDefinition } from '../strategy/define.ts';
import type { Intent } from '../strategy/intents/intents.ts';
import { createRunner } from '../strategy/runner.ts';
import type { AnyStrategyRunner } from '../strategy/runner.ts';
import type { BookTopInput, Denied, Interval, StrategyFailure, StrategyLogEntry, StrategyPlotEntry, TradeInput } from '../strategy/types.ts';

export type IntentOrigin = 'strategy' | 'engine';

export interface KernelHooks {
  /** Every batch of intents submitted, with who made it ('engine': cancels after a failure). */
  onIntents?(strategy: string, intents: readonly OrderIntent[], time: number, origin: IntentOrigin): void;
  onDenial?(denial: Denial): void;
  onFill?(strategy: string, fill: FillOut): void;
  onOrderUpdate?(strategy: string, update: OrderUpdateOut): void;
  onFailure?(failure: StrategyFailure): void;
  onIssue?(issue: OrderIssue): void;
  onLog?(entry: StrategyLogEntry): void;
  /**
   * Each value a strategy plotted (ctx.plot); without this hook ctx.plot does nothing. The entry is
   * the runner's one object, rewritten for the next value (StrategyRunnerOptions.onPlot): read it
   * during the call, copy what you keep.
   */
  onPlot?(entry: StrategyPlotEntry): void;
}

export interface KernelOptions extends KernelHooks {
  readonly orders: OrderManager;
  readonly venue: VenuePort;
  readonly clock: { now(): number };
  /** What happens to a failed strategy's open orders (default 'cancel'). */
  readonly onStrategyFailure?: 'cancel' | 'leave';
  /** Intent batches one strategy may submit in one drain before it is stopped (default 10 000). */
  readonly maxRounds?: number;
  /**
   * Called before every batch of intents goes through the order manager's checks: a host that
   * feeds market state lazily (the backtest's last price) brings it up to date here.
   */
  readonly beforeSubmit?: () => void;
}

export class Kernel {
  private readonly list: AnyStrategyRunner[] = [];
  private readonly byName = new Map<string, AnyStrategyRunner>();
  /**
   * The work queue as parallel columns (no object per item: a fill is a venue batch and an
   * intent batch or two): per item the runner (undefined for a venue batch), the intents or the
   * venue events, and the intents' origin. Items [head, tail) are queued; the columns keep their
   * length (slots are reused, emptied once done), so a drain allocates nothing.
   */
  private readonly qRunner: (AnyStrategyRunner | undefined)[] = [];
  private readonly qItems: (readonly OrderIntent[] | readonly VenueEvent[] | undefined)[] = [];
  private readonly qOrigin: IntentOrigin[] = [];
  private head = 0;
  private tail = 0;
  private readonly rounds = new Map<string, number>();
  private draining = false;
  /** Started: a strategy added now starts at once. Stopped: no strategy can be added. */
  private phase: 'created' | 'running' | 'stopped' = 'created';
  // What the intent and event paths read of the options, copied out of the caller's object (a
  // backtest makes one per run: docs/architecture.md, "Objects made once per run").
  private readonly orders: OrderManager;
  private readonly venue: VenuePort;
  private readonly clock: { now(): number };

  constructor(private readonly opts: KernelOptions) {
    this.orders = opts.orders;
    this.venue = opts.venue;
    this.clock = opts.clock;
    opts.venue.connect((events) => {
      this.enqueue(undefined, events, 'engine');
      this.drain();
    });
  }

  get runners(): readonly AnyStrategyRunner[] {
    return this.list;
  }

  runner(name: string): AnyStrategyRunner | undefined {
    return this.byName.get(name);
  }

  /** Host a strategy; its context reads the order manager's view of it. Throws on bad params (StrategyParamsError). */
  addStrategy(definition: AnyStrategyDefinition, params?: unknown): AnyStrategyRunner {
    if (this.phase === 'stopped') throw new RangeError(`cannot host '${definition.name}': the kernel has stopped`);
    if (this.byName.has(definition.name)) throw new RangeError(`a strategy named '${definition.name}' is already hosted`);
    const runner = createRunner(definition, {
      params,
      state: this.orders.view(definition.name),
      onFailure: (f) => this.failed(f),
      onLog: (e) => this.opts.onLog?.(e),
      ...(this.opts.onPlot === undefined ? {} : { onPlot: (e: StrategyPlotEntry) => this.opts.onPlot?.(e) }),
    });
    this.list.push(runner);
    this.byName.set(runner.name, runner);
    // Added to a running kernel (a live process hosting one more strategy): started now, as
    // start() would have; it sees the bars and events that come from here on.
    if (this.phase === 'running') this.handle(runner, runner.start());
    return runner;
  }

  start(): void {
    if (this.phase !== 'created') return;
    this.phase = 'running';
    for (const r of this.list) this.handle(r, r.start());
  }

  /** A bar has closed (the clock must be past its closeTime). */
  bar(symbol: string, interval: Interval, candle: Candle): void {
    const list = this.list;
    for (let i = 0; i < list.length; i++) {
      const r = list[i] as AnyStrategyRunner;
      const out = r.bar(symbol, interval, candle);
      if (out.length !== 0) this.handle(r, out);
    }
  }

  trade(input: TradeInput): void {
    for (const r of this.list) this.handle(r, r.trade(input));
  }

  bookTop(input: BookTopInput): void {
    for (const r of this.list) this.handle(r, r.bookTop(input));
  }

  /** The earliest time a hosted strategy's onTimer is due (undefined: none has a timer running). */
  get nextTimerAt(): number | undefined {
    let next: number | undefined;
    for (const r of this.list) {
      const due = r.nextTimerAt;
      if (due !== undefined && (next === undefined || due < next)) next = due;
    }
    return next;
  }

  /** Fire due timers. */
  timer(now: number = this.clock.now()): void {
    for (const r of this.list) {
      const due = r.nextTimerAt;
      if (due !== undefined && now >= due) this.handle(r, r.timer(now));
    }
  }

  /**
   * A fill the order manager already holds, told to its strategy's onFill now (not applied again,
   * no hook runs: the host says what it tells). For the live bot's fills applied before the
   * strategies started (the start-up reconciliation's) or journaled by a process that died before
   * telling them (bot/fill-tells.ts). False when the strategy is not running.
   */
  tellFill(strategy: string, fill: FillOut): boolean {
    const runner = this.byName.get(strategy);
    if (runner === undefined || runner.status !== 'running') return false;
    this.handle(runner, runner.fill(fill));
    return true;
  }

  stop(reason = 'requested'): void {
    this.phase = 'stopped';
    for (const r of this.list) this.handle(r, r.stop(reason));
  }

  private handle(runner: AnyStrategyRunner, intents: readonly Intent[], origin: IntentOrigin = 'strategy'): void {
    if (intents.length === 0) return;
    this.enqueue(runner, intents, origin);
    this.drain();
  }

  private enqueue(runner: AnyStrategyRunner | undefined, items: readonly OrderIntent[] | readonly VenueEvent[], origin: IntentOrigin): void {
    const t = this.tail++;
    if (t < this.qItems.length) {
      this.qRunner[t] = runner;
      this.qItems[t] = items;
      this.qOrigin[t] = origin;
    } else {
      this.qRunner.push(runner);
      this.qItems.push(items);
      this.qOrigin.push(origin);
    }
  }

  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    if (this.rounds.size !== 0) this.rounds.clear();
    try {
      while (this.head < this.tail) {
        const i = this.head++;
        const runner = this.qRunner[i];
        const items = this.qItems[i] as readonly OrderIntent[] & readonly VenueEvent[];
        this.qRunner[i] = undefined;
        this.qItems[i] = undefined;
        if (runner === undefined) this.apply(items);
        else this.submit(runner, items, this.qOrigin[i] as IntentOrigin);
      }
      // A host hook that threw let the work go on (every strategy told of everything): the host hears of it now.
      this.rethrowHookError();
    } finally {
      this.draining = false;
      // All done: start the columns over. A host error cut the drain short: the rest stays queued, moved to the front.
      const done = this.head;
      this.head = 0;
      if (done === this.tail) this.tail = 0;
      else {
        this.qRunner.splice(0, done);
        this.qItems.splice(0, done);
        this.qOrigin.splice(0, done);
        this.tail -= done;
      }
    }
  }

  private submit(runner: AnyStrategyRunner, intents: readonly OrderIntent[], origin: IntentOrigin): void {
    const { orders, venue, clock } = this;
    // A strategy that failed after this batch was queued (its next handler threw in the same drain)
    // places nothing more: its open orders were already read for the cancels, so what this batch
    // placed would stay open behind it.
    if (origin === 'strategy' && (runner.status === 'failed' || !this.withinRounds(runner))) return;
    const now = clock.now();
    this.opts.onIntents?.(runner.name, intents, now, origin);
    this.opts.beforeSubmit?.();
    const r = orders.submit(runner.name, intents, now);
    const commands = r.commands;
    for (let i = 0; i < commands.length; i++) venue.send(commands[i] as VenueCommand);
    const denials = r.denials;
    for (let i = 0; i < denials.length; i++) {
      const d = denials[i] as Denial;
      try {
        this.opts.onDenial?.(d);
      } catch (e) {
        this.hookFailed(e);
      }
      if (d.update) this.deliver(runner, d.update);
      else if (d.intent.kind !== 'place') this.handle(runner, runner.denial(deniedOf(d, d.intent)));
    }
  }

  /**
   * A venue batch: applied to the order manager, then every event told to its strategy. A host
   * hook that throws (a journal write failing) does not cut the work short: the order manager has
   * applied the batch, so each strategy is still told of each fill and update, and the drain goes
   * on; the first hook error is thrown when the drain is done (the host hears of it; no fill goes
   * untold, nothing stays queued behind it).
   */
  private apply(events: readonly VenueEvent[]): void {
    const r = this.orders.onVenueEvents(events);
    for (let i = 0; i < r.issues.length; i++) {
      try {
        this.opts.onIssue?.(r.issues[i] as OrderIssue);
      } catch (e) {
        this.hookFailed(e);
      }
    }
    const list = r.events;
    for (let i = 0; i < list.length; i++) {
      const e = list[i] as StrategyEvent;
      const runner = this.byName.get(e.strategy);
      if (e.kind === 'fill') {
        try {
          this.opts.onFill?.(e.strategy, e.fill);
        } catch (err) {
          this.hookFailed(err);
        }
        if (runner) this.handle(runner, runner.fill(e.fill));
      } else if (runner) this.deliver(runner, e.update);
      else {
        try {
          this.opts.onOrderUpdate?.(e.strategy, e.update);
        } catch (err) {
          this.hookFailed(err);
        }
      }
    }
  }

  private deliver(runner: AnyStrategyRunner, update: OrderUpdateOut): void {
    try {
      this.opts.onOrderUpdate?.(runner.name, update);
    } catch (e) {
      this.hookFailed(e);
    }
    this.handle(runner, runner.orderUpdate(update));
  }

  /** The first host hook error of the drain under way (`apply`, `submit`'s denials), thrown when the drain is done. */
  private hookError: { readonly error: unknown } | undefined;

  private hookFailed(error: unknown): void {
    this.hookError ??= { error };
  }

  private rethrowHookError(): void {
    const h = this.hookError;
    if (h === undefined) return;
    this.hookError = undefined;
    throw h.error;
  }

  private withinRounds(runner: AnyStrategyRunner): boolean {
    const n = (this.rounds.get(runner.name) ?? 0) + 1;
    this.rounds.set(runner.name, n);
    if (n <= (this.opts.maxRounds ?? 10_000)) return true;
    if (n === (this.opts.maxRounds ?? 10_000) + 1) {
      // A failure like any other (reported, open orders as onStrategyFailure says, no onStop: an
      // onStop placing orders would place them after the cancels).
      runner.abort('onOrderUpdate', 'bad-return', `more than ${this.opts.maxRounds ?? 10_000} intent batches in reaction to one event: stopped (an intent loop?)`);
    }
    return false;
  }

  private failed(f: StrategyFailure): void {
    this.opts.onFailure?.(f);
    const runner = this.byName.get(f.strategy);
    if (runner && (this.opts.onStrategyFailure ?? 'cancel') === 'cancel') this.cancelAll(runner);
  }

  private cancelAll(runner: AnyStrategyRunner): void {
    const cancels: OrderIntent[] = [];
    for (const o of this.orders.orders.openOrders(runner.name)) {
      if (o.status !== 'PENDING_CANCEL') cancels.push({ kind: 'cancel', symbol: o.symbol, clientOrderId: o.clientOrderId });
    }
    if (cancels.length) this.handle(runner, cancels as readonly Intent[], 'engine');
  }
}

/** A refused cancel or cancel-replace with no order to update, as its strategy sees it (onDenial). */
function deniedOf(d: Denial, intent: CancelOrderIntent | CancelReplaceOrderIntent): Denied {
  return { intent: intent.kind, symbol: intent.symbol, tag: intent.tag, clientOrderId: intent.clientOrderId, reasons: d.reasons, time: d.time };
}
