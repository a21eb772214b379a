/**
 * `halyard strategies [NAME|PATH]`: the strategies under `strategies/` (or the one named), each
 * with its description and its parameters (what each accepts, its default or that it is
 * required), as Freqtrade's `list-strategies`: what `--param` takes before a run refuses it.
 */
import type { Argv } from 'yargs';
import { alignTable } from '../../backtest/metrics-format.ts';
import { warmupCounts } from '../../backtest/run-notices.ts';
import { HalyardError } from '../../exchange/errors/errors.ts';
import { resolveSetup } from '../../strategy/define.ts';
import type { AnyStrategyDefinition, StrategySetup } from '../../strategy/define.ts';
import { DEFAULT_STRATEGIES_DIR, listStrategies, loadStrategy } from '../../strategy/loader.ts';
import { describeParams, parseParams } from '../../strategy/params.ts';
import { UsageError } from '../errors.ts';
import type { CliIo } from '../io.ts';
import type { GlobalArgs } from '../with-client.ts';
import { COMMANDS } from './catalog.ts';

export interface StrategiesArgs extends GlobalArgs {
  strategy?: string;
}

export function strategiesCommand(io: CliIo) {
  return {
    ...COMMANDS.strategies,
    builder: (y: Argv<GlobalArgs>) => y.positional('strategy', { type: 'string', describe: 'a name in strategies/ or a path to a .ts/.js file' }),
    handler: async (args: StrategiesArgs) => {
      await runStrategies(io, args);
    },
  };
}

export async function runStrategies(io: CliIo, args: StrategiesArgs): Promise<void> {
  const refs = args.strategy !== undefined ? [args.strategy] : listStrategies();
  if (refs.length === 0) {
    io.out(`no strategies in ${DEFAULT_STRATEGIES_DIR}`);
    return;
  }
  const blocks: string[] = [];
  for (const ref of refs) {
    try {
      blocks.push(formatStrategy((await loadStrategy(ref)).definition));
    } catch (e) {
      // One named on the command line is the user's error; one in the folder that fails is shown in its place.
      if (args.strategy !== undefined && e instanceof HalyardError) throw new UsageError(e.message);
      blocks.push(`${ref}: cannot be loaded: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  io.out(blocks.join('\n\n'));
}

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
