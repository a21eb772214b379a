/**
 * `halyard strategies [NAME|PATH]`: the strategies under `strategies/` (or the one named), each
 * with its description and its parameters (what each accepts, its default or that it is
 * required), as Freqtrade's `list-strategies`: what `--param` takes before a run refuses it.
 */
import type { Argv } from 'yargs';
import { alignTable } from '../../backtest/metrics-format.ts';
import { HalyardError } from '../../exchange/errors/errors.ts';
import type { AnyStrategyDefinition } from '../../strategy/define.ts';
import { DEFAULT_STRATEGIES_DIR, listStrategies, loadStrategy } from '../../strategy/loader.ts';
import { describeParams } from '../../strategy/params.ts';
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

/** A strategy's name, description and parameter table. */
export function formatStrategy(def: AnyStrategyDefinition): string {
  const params = describeParams(def.params);
  const head = def.description ? `${def.name}: ${def.description}` : def.name;
  if (params.length === 0) return `${head}\n  (no parameters)`;
  const rows = [['param', 'accepts', 'default'], ...params.map((p) => [p.name, p.accepts ?? '', p.required ? '(required)' : 'default' in p ? showDefault(p.default) : '(optional)'])];
  return [head, ...alignTable(rows, () => false).map((l) => `  ${l.trimEnd()}`)].join('\n');
}

function showDefault(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}
