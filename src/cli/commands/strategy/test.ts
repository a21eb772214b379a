/**
 * `halyard test PATH...`: runs the tests of a strategy kept outside this repository
 * (docs/guides/strategy-project.md) with this installation's vitest, the names of package.json
 * "exports" (`halyard`, `halyard/strategy`, `halyard/strategy/testing`) mapped to the code this
 * installation runs (dist/ when built, the sources otherwise), as the loader maps them when it imports a strategy
 * (strategy/loading/package-resolve.ts). Nothing to install or configure beside the strategy: an author
 * writes `my-strategy.test.mts` next to `my-strategy.mts` and runs `npx halyard test ~/strats`.
 *
 * A PATH is a test file or a folder (its `*.test.*` / `*.spec.*` files). Exit 0 when every test
 * passed, 1 when one failed, 2 for a path that does not exist or holds no test file. `--watch`
 * runs them again on every change of the tests or the strategy until Ctrl-C. Coloured only on a
 * terminal, never with NO_COLOR, always with FORCE_COLOR (io.ts useColor).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Argv } from 'yargs';
import { packageTargets } from '../../../strategy/loading/package-resolve.ts';
import { UsageError } from '../../errors.ts';
import { stopped, useColor, type CliIo } from '../../io.ts';
import type { GlobalArgs } from '../../with-client.ts';
import { COMMANDS } from '../catalog.ts';

export interface TestArgs extends GlobalArgs {
  paths?: string[];
  watch?: boolean;
}

/** What vitest takes as a test file (its default `include`, plus .mts/.cts). */
const TEST_FILE = /\.(test|spec)\.(c|m)?[jt]sx?$/;

export function testCommand(io: CliIo, setExit: (code: number) => void) {
  return {
    ...COMMANDS.test,
    builder: (y: Argv<GlobalArgs>) =>
      y
        .positional('paths', { type: 'string', array: true, describe: 'test files or folders of them (e.g. ~/strats or ~/strats/my-strategy.test.mts)' })
        .option('watch', { type: 'boolean', describe: 'run them again on every change until Ctrl-C' }),
    handler: async (args: TestArgs) => {
      setExit(await runTests(io, args.paths ?? [], { watch: args.watch === true }));
    },
  };
}

/** Checks the paths, runs vitest on them; the exit code. */
export async function runTests(io: CliIo, paths: readonly string[], options: { watch?: boolean } = {}): Promise<number> {
  const watch = options.watch === true;
  if (paths.length === 0) throw new UsageError('name the test files or folders to run, e.g. halyard test ~/strats');
  const absolute = paths.map((p) => path.resolve(p));
  for (const [i, p] of absolute.entries()) {
    if (!existsSync(p)) throw new UsageError(`${paths[i] as string}: no such file or folder`);
    if (statSync(p).isFile() && !TEST_FILE.test(p)) throw new UsageError(`${paths[i] as string} is not a test file (name it *.test.mts, *.test.ts or *.test.mjs)`);
  }
  const root = commonFolder(absolute);
  const alias = Object.entries(packageTargets()).map(([find, url]) => ({ find: new RegExp(`^${escape(find)}$`), replacement: fileURLToPath(url) }));
  // Colours only on a terminal (io.ts useColor): vitest's colour library colours a pipe too unless
  // NO_COLOR is set, and it and the test workers read the process's environment, read when
  // vitest is loaded: so it is set there, before.
  if (!useColor(io, 'out')) {
    process.env['NO_COLOR'] = '1';
    delete process.env['FORCE_COLOR'];
  }
  const { startVitest } = await import('vitest/node');
  // cache: false: vitest's results cache would go to <root>/node_modules/.vite, a folder made in
  // the author's strategy folder (to commit or ignore) for a cache a single run does not need.
  const vitest = await startVitest(
    'test',
    absolute,
    { run: !watch, watch, config: false, cache: false, root, include: ['**/*.{test,spec}.?(c|m)[jt]s?(x)'], passWithNoTests: watch },
    { resolve: { alias } },
  );
  if (watch) {
    // Vitest reruns on changes by itself; the command ends with the process's signal (Ctrl-C).
    await stopped(io.signal);
    await vitest.close();
    return 0;
  }
  const files = vitest.state.getFiles();
  const failed = files.some((f) => f.result?.state === 'fail') || vitest.state.getCountOfFailedTests() > 0;
  await vitest.close();
  if (files.length === 0) {
    io.err(`no test files in ${paths.join(', ')} (vitest runs *.test.* and *.spec.* files)`);
    return 2;
  }
  return failed ? 1 : 0;
}

/** The deepest folder holding every path (a file counts by its folder). */
function commonFolder(paths: readonly string[]): string {
  const dirs = paths.map((p) => (statSync(p).isDirectory() ? p : path.dirname(p)));
  let common = dirs[0] as string;
  for (const d of dirs.slice(1)) {
    while (d !== common && !d.startsWith(common + path.sep)) common = path.dirname(common);
  }
  return common;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
