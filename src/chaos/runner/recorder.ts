/**
 * What the chaos strategies report to the run (issue 22 deliverable 2: "fills the venue made vs
 * fills the journal and the strategies saw"): each fill a strategy was told of (its onFill), and how
 * many intents each has asked for, so the run stops at N intents. The strategies are loaded by the
 * bot from their files (src/bot/strategies.ts), so they cannot be handed an object: they find their
 * run's recorder by name on `globalThis` (a Symbol.for key, the same from any copy of this module).
 * With `recordFile` (a run whose bot is a child process) each fill is also appended there as a JSON
 * line `{strategy, orderId, tradeId}`.
 */
import { appendFileSync } from 'node:fs';
import type { StrategyFill, StrategyFills } from '../input.ts';

export interface RunRecorder {
  readonly id: string;
  /** Intents asked so far, per strategy. */
  readonly intents: Map<string, number>;
  readonly fills: Map<string, StrategyFill[]>;
}

const KEY = Symbol.for('halyard.chaos.recorders');

function all(): Map<string, RunRecorder> {
  const g = globalThis as { [KEY]?: Map<string, RunRecorder> };
  return (g[KEY] ??= new Map());
}

/** The recorder of run `id`, made on first use. */
export function recorderOf(id: string): RunRecorder {
  let r = all().get(id);
  if (r === undefined) all().set(id, (r = { id, intents: new Map(), fills: new Map() }));
  return r;
}

export function dropRecorder(id: string): void {
  all().delete(id);
}

export function recordFill(id: string, strategy: string, fill: StrategyFill, file?: string): void {
  const r = recorderOf(id);
  let list = r.fills.get(strategy);
  if (list === undefined) r.fills.set(strategy, (list = []));
  list.push({ orderId: fill.orderId, tradeId: fill.tradeId });
  if (file !== undefined && file !== '') appendFileSync(file, `${JSON.stringify({ strategy, orderId: fill.orderId, tradeId: fill.tradeId })}\n`);
}

export function intentsAsked(r: RunRecorder): number {
  let n = 0;
  for (const v of r.intents.values()) n += v;
  return n;
}

export function strategyFills(r: RunRecorder, strategies: readonly string[]): StrategyFills[] {
  return strategies.map((strategy) => ({ strategy, fills: [...(r.fills.get(strategy) ?? [])] }));
}
