/**
 * `defineStrategy`: the plugin contract. A strategy is a plain object: a name, a zod params
 * schema with defaults, the symbols and intervals it needs (fixed or derived from its params),
 * how many closed bars it needs before it trades (warm-up, as Freqtrade's startup_candle_count: one
 * count for every series, or a count per interval, as its informative timeframes get theirs),
 * an optional timer, an optional state factory, and handlers that return intents (intents.ts).
 * Smaller than Freqtrade's IStrategy, Hummingbot's V2 controllers or a NautilusTrader Strategy:
 * no base class, no client, no keys, no order methods; the context (context.ts) is everything a
 * handler can read, and the return value is everything it can do.
 *
 * The definition is checked here (unknown keys such as a misspelt `onbar` are errors) and frozen;
 * a brand lets the loader recognise it even across module copies.
 */
import type { z } from 'zod';
import type { ParamsSchema } from './params.ts';
import { describeValue } from './describe-value.ts';
import { StrategyDefinitionError } from './errors.ts';
import type { StrategyContext } from './context.ts';
import type { HandlerResult } from './intents/intents.ts';
import type { Bar, BookTop, Denied, Fill, Interval, OrderUpdate, StopReason, Trade } from './types.ts';
import { HANDLER_NAMES, INTERVALS } from './types.ts';

export type Params<Schema extends ParamsSchema> = Readonly<z.output<Schema>>;
/** `warmup` per interval: closed bars each named interval's series needs (see StrategySpec.warmup). */
export type WarmupByInterval = Readonly<Partial<Record<Interval, number>>>;
/**
 * A function of the params. Declared through a method signature so its parameter is bivariant:
 * that is what lets any concrete definition be held as an AnyStrategyDefinition (the loader's
 * output, a host's list) without `any`.
 */
type ParamsFn<P, T> = { fn(params: P): T }['fn'];
type FromParams<Schema extends ParamsSchema, T> = T | ParamsFn<Params<Schema>, T>;

/** The handlers; each is synchronous and returns intents or nothing. */
export interface StrategyHandlers<P, S> {
  onStart?(ctx: StrategyContext<P, S>): HandlerResult;
  /**
   * A bar of one of the declared symbols and intervals has CLOSED (after warm-up); it is also the
   * last of `ctx.bars()`. A handler declared without the `bar` parameter is not handed one (the
   * frozen Bar is then not built: the runner's reads-argument.ts).
   */
  onBar?(ctx: StrategyContext<P, S>, bar: Bar): HandlerResult;
  onTrade?(ctx: StrategyContext<P, S>, trade: Trade): HandlerResult;
  onBookTop?(ctx: StrategyContext<P, S>, top: BookTop): HandlerResult;
  /** One of the strategy's orders changed state (including DENIED by the pre-trade checks). */
  onOrderUpdate?(ctx: StrategyContext<P, S>, update: OrderUpdate): HandlerResult;
  onFill?(ctx: StrategyContext<P, S>, fill: Fill): HandlerResult;
  /** A cancel or cancel-replace was refused with no order of the strategy to update (types.ts Denied). */
  onDenial?(ctx: StrategyContext<P, S>, denial: Denied): HandlerResult;
  /** Every `timerMs` (aligned to multiples of it); `time` is the scheduled time. */
  onTimer?(ctx: StrategyContext<P, S>, time: number): HandlerResult;
  /** Last call; intents returned here (cancels) are still delivered. */
  onStop?(ctx: StrategyContext<P, S>, reason: StopReason): HandlerResult;
}

export interface StrategySpec<Schema extends ParamsSchema, S> extends StrategyHandlers<Params<Schema>, S> {
  /** 1..40 characters of [A-Za-z0-9_-]; shown in logs and reports. */
  readonly name: string;
  readonly description?: string;
  readonly params: Schema;
  readonly symbols: FromParams<Schema, readonly string[]>;
  /** Bar intervals to receive; default ['1m']. */
  readonly intervals?: FromParams<Schema, readonly Interval[]>;
  /**
   * Closed bars needed before onBar runs; default 0. A number: each series needs that many before
   * onBar is called for its bars (every series on its own). A record of interval -> count (e.g.
   * `{ '1m': p.slow + 1, '1h': 20 }`): onBar of a symbol runs only once every declared series of it
   * has its count (an interval the record does not name needs none); naming an interval the
   * strategy does not declare is an error.
   */
  readonly warmup?: FromParams<Schema, number | WarmupByInterval>;
  /** Closed bars kept per series; default max(1000, warmup: its largest count). */
  readonly history?: FromParams<Schema, number>;
  /** Timer period in ms; requires onTimer. */
  readonly timerMs?: FromParams<Schema, number>;
  /** Fresh mutable state for each instance (never keep state in module scope: runs would share it). */
  readonly state?: ParamsFn<Params<Schema>, S>;
}

export const STRATEGY_BRAND: unique symbol = Symbol.for('halyard.strategy-definition') as never;

export type StrategyDefinition<Schema extends ParamsSchema = ParamsSchema, S = unknown> = Readonly<StrategySpec<Schema, S>> & {
  readonly [STRATEGY_BRAND]: true;
};

/** Any definition, whatever its params and state (handlers are methods, so this is assignable). */
export type AnyStrategyDefinition = StrategyDefinition<ParamsSchema, unknown>;

const NAME = /^[A-Za-z0-9_-]{1,40}$/;
const KEYS = new Set<string>(['name', 'description', 'params', 'symbols', 'intervals', 'warmup', 'history', 'timerMs', 'state', ...HANDLER_NAMES]);

function isZodObject(x: unknown): boolean {
  const def = (x as { _zod?: { def?: { type?: unknown } } } | null)?._zod?.def;
  return def?.type === 'object' && typeof (x as { strict?: unknown }).strict === 'function';
}

export function defineStrategy<Schema extends ParamsSchema, S = undefined>(spec: StrategySpec<Schema, S>): StrategyDefinition<Schema, S> {
  const name = typeof spec?.name === 'string' ? spec.name : '(unnamed)';
  const fail = (message: string): never => {
    throw new StrategyDefinitionError(name, message);
  };
  if (typeof spec !== 'object' || spec === null) fail('defineStrategy expects an object');
  if (!NAME.test(name)) fail(`name must be 1..40 characters of A-Z a-z 0-9 _ -, got ${JSON.stringify(spec.name)}`);
  const unknown = Object.keys(spec).filter((k) => !KEYS.has(k));
  if (unknown.length) fail(`unknown field(s) ${unknown.map((k) => `'${k}'`).join(', ')} (handlers are ${HANDLER_NAMES.join(', ')})`);
  if (!isZodObject(spec.params)) fail('params must be a zod object schema, e.g. z.object({ fast: z.number().int().default(10) })');
  for (const h of HANDLER_NAMES) if (spec[h] !== undefined && typeof spec[h] !== 'function') fail(`${h} must be a function`);
  if (spec.state !== undefined && typeof spec.state !== 'function') fail('state must be a function (params) => initial state');
  if (typeof spec.symbols !== 'function' && !Array.isArray(spec.symbols)) fail('symbols must be a list of symbols or (params) => list');
  if (spec.onTimer && spec.timerMs === undefined) fail('onTimer needs timerMs');
  if (spec.timerMs !== undefined && !spec.onTimer) fail('timerMs is set but there is no onTimer');
  if (spec.warmup !== undefined && (spec.warmup === null || !['number', 'object', 'function'].includes(typeof spec.warmup))) {
    fail(`warmup must be a number, a record of interval -> number or (params) => either, got ${describeValue(spec.warmup)}`);
  }
  if (!HANDLER_NAMES.some((h) => spec[h] !== undefined)) fail('a strategy needs at least one handler');
  return Object.freeze({ ...spec, [STRATEGY_BRAND]: true as const });
}

export function isStrategyDefinition(x: unknown): x is AnyStrategyDefinition {
  return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[STRATEGY_BRAND] === true;
}

/** What a definition asks for under given params. */
export interface StrategySetup {
  readonly symbols: readonly string[];
  readonly intervals: readonly Interval[];
  /** The warm-up as a number (each series needs that many), or with a record its largest count (what `history` covers). */
  readonly warmup: number;
  /**
   * With `warmup` given per interval: every declared interval's count (0 where the record names
   * none); the runner then holds onBar of a symbol until all its series have theirs. Absent with a
   * number (each series on its own, `warmup` each): read both forms through `warmupOf`.
   */
  readonly warmupByInterval?: Readonly<Partial<Record<Interval, number>>>;
  readonly history: number;
  readonly timerMs: number | undefined;
}

/** Closed bars the series of `interval` needs before onBar runs, in either form of `warmup`. */
export function warmupOf(setup: StrategySetup, interval: Interval): number {
  const by = setup.warmupByInterval;
  return by === undefined ? setup.warmup : (by[interval] ?? 0);
}

const isCount = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0;

/** A per-interval warmup checked against the declared intervals: each of them with its count (0 where not named). */
function warmupRecord(value: object, intervals: readonly Interval[], fail: (message: string) => never): Partial<Record<Interval, number>> {
  const proto: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value) || (proto !== Object.prototype && proto !== null)) {
    return fail(`warmup must be a number or a record of interval -> number such as { '1m': 31, '1h': 20 }, got ${describeValue(value)}`);
  }
  const named = value as Record<string, unknown>;
  for (const [k, n] of Object.entries(named)) {
    if (!(INTERVALS as readonly string[]).includes(k)) fail(`warmup names '${k}', which is not an interval (one of ${INTERVALS.join(', ')})`);
    if (!intervals.includes(k as Interval)) fail(`warmup names ${k}, which the strategy does not declare (its intervals: ${intervals.join(', ')}): declare it in intervals or drop it from warmup`);
    if (!isCount(n)) fail(`warmup of ${k} must be an integer >= 0, got ${describeValue(n)}`);
  }
  const out: Partial<Record<Interval, number>> = {};
  for (const i of intervals) out[i] = (named[i] as number | undefined) ?? 0;
  return Object.freeze(out);
}

/** Resolve symbols, intervals, warm-up, history and timer for validated params; throws StrategyDefinitionError. */
export function resolveSetup<Schema extends ParamsSchema, S>(def: StrategyDefinition<Schema, S>, params: Params<Schema>): StrategySetup {
  const fail = (message: string, cause?: unknown): never => {
    throw new StrategyDefinitionError(def.name, message, cause === undefined ? undefined : { cause });
  };
  const get = <T>(field: string, v: FromParams<Schema, T> | undefined, fallback: T): T => {
    if (typeof v !== 'function') return v ?? fallback;
    try {
      return (v as (p: Params<Schema>) => T)(params);
    } catch (e) {
      return fail(`${field}(params) threw: ${e instanceof Error ? e.message : String(e)}`, e);
    }
  };
  const symbols = get('symbols', def.symbols, []);
  if (!Array.isArray(symbols) || symbols.length === 0 || !symbols.every((s) => typeof s === 'string' && s.length > 0)) {
    fail(`symbols must be a non-empty list of symbol names, got ${JSON.stringify(symbols)}`);
  }
  const intervals = get<readonly Interval[]>('intervals', def.intervals, ['1m']);
  if (!Array.isArray(intervals) || intervals.length === 0 || !intervals.every((i) => (INTERVALS as readonly string[]).includes(i))) {
    fail(`intervals must be a non-empty list of ${INTERVALS.join(', ')}; got ${JSON.stringify(intervals)}`);
  }
  const declared: readonly Interval[] = Object.freeze([...new Set<Interval>(intervals)]);
  const given = get<number | WarmupByInterval>('warmup', def.warmup, 0);
  const byInterval = typeof given === 'object' && given !== null ? warmupRecord(given, declared, fail) : undefined;
  if (byInterval === undefined && !isCount(given)) fail(`warmup must be an integer >= 0 or a record of interval -> integer >= 0, got ${String(given)}`);
  // A record's largest count is what the kept history must cover.
  const warmup = byInterval === undefined ? (given as number) : Math.max(0, ...Object.values(byInterval));
  const history = get('history', def.history, Math.max(1000, warmup));
  if (!Number.isInteger(history) || history < Math.max(1, warmup)) {
    const what = byInterval === undefined ? `warmup = ${warmup}` : `the largest warmup = ${warmup} (${declared.filter((i) => byInterval[i] === warmup).join(', ')})`;
    fail(`history must be an integer >= max(1, ${what}), got ${String(history)}`);
  }
  const timerMs = get<number | undefined>('timerMs', def.timerMs, undefined);
  if (timerMs !== undefined && (!Number.isInteger(timerMs) || timerMs < 1)) fail(`timerMs must be an integer >= 1, got ${String(timerMs)}`);
  return Object.freeze({
    symbols: Object.freeze([...new Set(symbols)]),
    intervals: declared,
    warmup,
    // Only with a record: a numeric warmup's setup reads exactly as before.
    ...(byInterval === undefined ? {} : { warmupByInterval: byInterval }),
    history,
    timerMs,
  });
}
