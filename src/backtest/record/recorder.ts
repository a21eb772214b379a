/**
 * backtest/record/: what a run keeps as it goes (fills, orders, equity columns, plots, round trips).
 * Imports only sources/ among the backtest folders.
 *
 * Collects what a backtest run reports (types.ts BacktestRun): fills (kept as the order manager's
 * frozen FillOuts; the run's BacktestFill copies are made when first read), denials, strategy failures,
 * the intents (for the testing kit), round trips, and one equity point per bar. Equity is the
 * account's quote plus base (free and locked) valued at the bar's close, as numbers (they only
 * feed metrics and charts), kept as typed columns; the numbers are recomputed only when the
 * account changed.
 */
import { fileURLToPath } from 'node:url';
import type { Denial, OrderIssue } from '../../core/orders/index.ts';
import type { AccountState } from '../../core/orders/account.ts';
import type { FillOut, OrderIntent } from '../../core/orders/types.ts';
import type { IntentOrigin } from '../../engine/kernel.ts';
import type { StrategyFailure as RunnerFailure } from '../../strategy/types.ts';
import type { RoundTripBook } from '../../core/portfolio/round-trips.ts';
import { EquityRecorder } from './equity-columns.ts';
import { defineLazyField, lazySource } from './lazy-field.ts';
import type { BacktestFill, DenialRecord, StrategyFailure } from '../types.ts';

export interface IntentRecord {
  readonly time: number;
  readonly strategy: string;
  readonly origin: IntentOrigin;
  readonly intent: OrderIntent;
}

/** The BacktestFill of a fill: the report's fields in types.ts order. */
function backtestFillOf(f: FillOut): BacktestFill {
  return {
    time: f.time,
    symbol: f.symbol,
    side: f.side,
    price: f.price,
    qty: f.qty,
    quoteQty: f.quoteQty,
    commission: f.commission,
    commissionAsset: f.commissionAsset,
    orderId: f.orderId,
    clientOrderId: f.clientOrderId,
    tradeId: f.tradeId,
    isMaker: f.isMaker,
    ...(f.tag === undefined ? {} : { tag: f.tag }),
  };
}

/**
 * Define `run.fills` from the recorded fills, made into BacktestFills on first read
 * (lazy-field.ts). Call it where `fills` belongs in the object's key order.
 */
export function attachFills<T extends object>(run: T, fills: readonly FillOut[]): T & { fills: BacktestFill[] } {
  defineLazyField(run, 'fills', fills, (list) => list.map(backtestFillOf));
  return run as T & { fills: BacktestFill[] };
}

/** The fills a run's `fills` come from while not made yet (and not replaced): each has every BacktestFill field. */
export function fillRecordsOf(run: object): readonly BacktestFill[] | undefined {
  return lazySource<readonly FillOut[]>(run, 'fills');
}

/** This installation's sources (`.../src/`): frames in them are Halyard's, not the strategy's. */
const HALYARD_SRC = fileURLToPath(new URL('../../', import.meta.url));

/** A stack frame's location (`/path/strategy.ts:12:7`), a file URL as a path. */
const frameSite = (frame: string): string => (/\((.*)\)\s*$/.exec(frame)?.[1] ?? frame.replace(/^\s+at /, '')).replace(/^file:\/\//, '').trim();

/**
 * Where a strategy's throw happened (`/path/strategy.ts:12:7`), file URLs as paths; undefined
 * without a frame. The first frame with a file and line outside Halyard's sources (`halyardSrc`;
 * their tests aside), node's internals and any node_modules: an error Halyard raised on the
 * strategy's behalf (a ctx call it misused, a rounding helper given NaN) points at the strategy's
 * line that called it. The first frame when every frame is Halyard's.
 */
export function throwSite(stack: string | undefined, halyardSrc: string = HALYARD_SRC): string | undefined {
  const sites = (stack?.split('\n') ?? []).filter((l) => /^\s+at /.test(l)).map(frameSite);
  const halyards = (site: string) => site.startsWith(halyardSrc) && !/\.test\.[cm]?[jt]s:/.test(site);
  const own = sites.find((site) => /:\d+:\d+$/.test(site) && !halyards(site) && !site.startsWith('node:') && !site.includes('/node_modules/'));
  return own ?? sites[0];
}

/** The quote and base an equity point values (a class: one shape, double fields updated in place). */
class Held {
  quote = 0;
  base = 0;
}

export class Recorder {
  /** The fills as the order manager reported them (frozen; the run's BacktestFills are made from them when read). */
  readonly fills: FillOut[] = [];
  readonly denials: DenialRecord[] = [];
  readonly failures: StrategyFailure[] = [];
  readonly issues: OrderIssue[] = [];
  /** One slot a bar, as columns (equity-columns.ts). */
  readonly equity: EquityRecorder;
  /** Index of the bar being played (fills are attributed to it). */
  bar = 0;
  private version = -1;
  /** The account's quote and base totals as numbers, as of `version`. */
  private readonly held = new Held();

  constructor(
    private readonly account: AccountState,
    private readonly baseAsset: string,
    private readonly quoteAsset: string,
    /** Where fills go for the round trips: the symbol's book (a run of several symbols: each fill to its symbol's). */
    private readonly trips: Pick<RoundTripBook, 'onFill'>,
    private readonly onIntent?: (r: IntentRecord) => void,
    /** Bars the run will record, when known (an array of bars, no range): the equity columns are allocated once. */
    expectedBars = 0,
  ) {
    this.equity = new EquityRecorder(expectedBars);
  }

  intents(strategy: string, intents: readonly OrderIntent[], time: number, origin: IntentOrigin): void {
    if (this.onIntent) for (const intent of intents) this.onIntent({ time, strategy, origin, intent });
  }

  fill(f: FillOut): void {
    this.fills.push(f);
    this.trips.onFill(f, this.bar);
  }

  denial(d: Denial): void {
    this.denials.push({ time: d.time, symbol: d.symbol, tag: d.tag, reasons: [...d.reasons] });
  }

  failure(f: RunnerFailure): void {
    const at = f.kind === 'threw' ? throwSite(f.stack) : undefined;
    this.failures.push(at === undefined ? { time: f.time, handler: f.handler, message: f.message } : { time: f.time, handler: f.handler, message: f.message, at });
  }

  issue(i: OrderIssue): void {
    this.issues.push(i);
  }

  /** The equity point of a bar: at its close time, its close valuing the base held (the bar itself passed: no boxed numbers). */
  point(bar: { readonly closeTime: number; readonly close: number }): void {
    const a = this.account;
    if (a.version !== this.version) {
      this.version = a.version;
      this.held.quote = a.totalNumberOf(this.quoteAsset);
      this.held.base = a.totalNumberOf(this.baseAsset);
    }
    this.equity.record(bar, this.held);
  }
}
