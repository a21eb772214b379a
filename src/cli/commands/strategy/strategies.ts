/**
 * `halyard strategies [NAME|PATH]`: the strategies under `strategies/` (or the one named), each
 * with its description and its parameters (what each accepts, its default or that it is
 * required), as Freqtrade's `list-strategies`: what `--param` takes before a run refuses it.
 *
 * Start-up (issue 25: at most 0.3 s over `node -e 0`): running compiled, the examples the build
 * compiled (dist/strategies/) are shown from dist/strategies/descriptions.json, the blocks
 * scripts/build.mjs computed with formatStrategy() from the same compiled modules, so listing them
 * loads neither zod, nor the strategy layer, nor tsx (importing them took about 0.5 s). Any other
 * strategy (a path, a file added to strategies/, every one when running from the sources) is
 * imported and formatted (strategies-format.ts), as before. test/strategies-built.test.ts holds the
 * built command's output equal to the sources'.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Argv } from 'yargs';
import { HalyardError } from '../../../exchange/errors/errors.ts';
import { BUILT_STRATEGIES_DIR, listStrategies, resolveStrategy, strategyFolders } from '../../../strategy/loading/strategy-names.ts';
import { UsageError } from '../../errors.ts';
import type { CliIo } from '../../io.ts';
import type { GlobalArgs } from '../../with-client.ts';
import { COMMANDS } from '../catalog.ts';

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
    io.out(`no strategies in ${strategyFolders().join(' and ')}`);
    return;
  }
  const described = builtDescriptions();
  const blocks: string[] = [];
  for (const ref of refs) {
    try {
      blocks.push(described.get(resolveStrategy(ref)) ?? (await loadAndFormat(ref)));
    } catch (e) {
      // One named on the command line is the user's error (exit 2, whatever its module threw: a
      // syntax error, a throw at import); one in the folder that fails is shown in its place.
      const why = e instanceof Error ? e.message : String(e);
      if (args.strategy !== undefined) throw new UsageError(e instanceof HalyardError ? why : `${ref}: cannot be loaded: ${why}`);
      blocks.push(`${ref}: cannot be loaded: ${why}`);
    }
  }
  io.out(blocks.join('\n\n'));
}

/** Import the strategy and format it (the strategy layer and zod load here, only when needed). */
async function loadAndFormat(ref: string): Promise<string> {
  const [{ loadStrategy }, { formatStrategy }] = await Promise.all([import('../../../strategy/loading/loader.ts'), import('./strategies-format.ts')]);
  return formatStrategy((await loadStrategy(ref)).definition);
}

/**
 * The build's blocks of the compiled examples, by absolute file (dist/strategies/descriptions.json);
 * empty from the sources, or when the file is missing or unreadable (each strategy is then loaded).
 */
function builtDescriptions(): Map<string, string> {
  const found = new Map<string, string>();
  if (BUILT_STRATEGIES_DIR === undefined) return found;
  const file = path.join(BUILT_STRATEGIES_DIR, 'descriptions.json');
  if (!existsSync(file)) return found;
  try {
    const { strategies } = JSON.parse(readFileSync(file, 'utf8')) as { strategies?: Record<string, { file?: unknown; text?: unknown }> };
    for (const entry of Object.values(strategies ?? {})) {
      if (typeof entry.file === 'string' && typeof entry.text === 'string') found.set(path.join(BUILT_STRATEGIES_DIR, entry.file), entry.text);
    }
  } catch {
    // A damaged file only costs the fast path: every strategy is loaded instead.
  }
  return found;
}
