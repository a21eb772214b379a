/**
 * What `halyard strategies` prints of one strategy: its name, description, parameter table, and
 * what it trades with its default parameters. Apart from the command (strategies.ts) because it
 * needs the strategy layer and zod (the parameter schemas): the command lists the compiled
 * examples from the build's descriptions.json, which scripts/build.mjs makes with this function,
 * and loads this module only for a strategy it has to import.
 */
import { alignTable } from '../../../backtest/metrics/metrics-format.ts';
import { warmupCounts } from '../../../backtest/run/run-notices.ts';
import { resolveSetup } from '../../../strategy/define.ts';
import type { AnyStrategyDefinition, StrategySetup } from '../../../strategy/define.ts';
import { describeParams, parseParams } from '../../../strategy/params.ts';

/** A strategy's name, description, parameter table, and what it trades with its default parameters. */
export function formatStrategy(def: AnyStrategyDefinition): string {
  const params = describeParams(def.params);
  const head = def.description ? `${def.name}: ${def.description}` : def.name;
  const setup = `  ${setupLine(def)}`;
  if (params.length === 0) return `${head}\n  (no parameters)\n${setup}`;
  const rows = [['param', 'accepts', 'default'], ...params.map((p) => [p.name, p.accepts ?? '', p.required ? '(required)' : 'default' in p ? showDefault(p.default) : '(optional)'])];
  return [head, ...alignTable(rows, () => false).map((l) => `  ${l.trimEnd()}`), setup].join('\n');
}

/**
 * What the strategy trades with its defaults: symbols, intervals (a backtest runs on the first and
 * makes the longer ones from it), warmup (per interval when so given), timer. With required parameters there are no defaults to
 * resolve: it says which to give.
 */
function setupLine(def: AnyStrategyDefinition): string {
  let setup: StrategySetup;
  try {
    setup = resolveSetup(def, parseParams(def.name, def.params, {}) as never);
  } catch (e) {
    const required = describeParams(def.params).filter((p) => p.required).map((p) => p.name);
    if (required.length) return `with its defaults: give ${required.join(', ')} first`;
    return `with its defaults: cannot resolve its setup (${e instanceof Error ? e.message : String(e)})`;
  }
  const timer = setup.timerMs === undefined ? '' : `, onTimer every ${durationText(setup.timerMs)}`;
  // A warmup per interval lists each interval's count ('warmup 1m 31, 1h 20 bars').
  const counts = setup.warmupByInterval === undefined ? `${setup.warmup} bar${setup.warmup === 1 ? '' : 's'}` : warmupCounts(setup.warmupByInterval);
  const warmup = setup.warmup > 0 ? `, warmup ${counts}` : '';
  return `with its defaults: ${setup.symbols.join(', ')} on ${setup.intervals.join(', ')}${warmup}${timer}`;
}

function durationText(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

function showDefault(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}
