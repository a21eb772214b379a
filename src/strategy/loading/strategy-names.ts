/**
 * Strategy references to files, without importing anything (so `halyard strategies` can list the
 * examples without loading zod or the strategy layer: issue 25, start-up). A reference is a path
 * (`./my-strat.ts`, `.js`, `.mjs`, absolute) or a name from the project's `strategies/` folder
 * (`sma-crossover` -> `strategies/sma-crossover.ts`, or `strategies/sma-crossover/index.ts`), as
 * Freqtrade finds a strategy by name in its user folder. loader.ts imports what this resolves.
 *
 * Running compiled (dist/), a name is looked up first among the compiled examples,
 * dist/strategies/ (scripts/build.mjs compiles strategies/ there and ships it in the package), then
 * in strategies/: a compiled example loads as JavaScript, with no tsx. A checkout whose strategies/
 * changed after the build runs its sources (bin/halyard.mjs), so a compiled copy never shadows an
 * edited file; an installed package has only the compiled ones.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StrategyLoadError } from '../errors.ts';

/** `<project>/strategies`, found from this file's place in the tree (not from the cwd): the example sources, where new ones are written. */
export const DEFAULT_STRATEGIES_DIR = fileURLToPath(new URL('../../../strategies/', import.meta.url));

/** This module runs compiled (dist/strategy/loading/strategy-names.js). */
const COMPILED = import.meta.url.endsWith('.js');

/** Running compiled: dist/strategies/, the examples as the build compiled them; from the sources, none. */
export const BUILT_STRATEGIES_DIR: string | undefined = COMPILED ? fileURLToPath(new URL('../../strategies/', import.meta.url)) : undefined;

export const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'] as const;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export interface LoadOptions {
  /** Folder searched for names; default the compiled examples (when running compiled), then DEFAULT_STRATEGIES_DIR. */
  readonly strategiesDir?: string;
  /** Base for relative paths; default process.cwd(). */
  readonly cwd?: string;
}

const isFile = (p: string) => existsSync(p) && statSync(p).isFile();
const isCodeFile = (f: string) => EXTENSIONS.some((e) => f.endsWith(e)) && !/\.(test|spec)\.[mc]?[jt]s$/.test(f) && !f.endsWith('.d.ts');

/** The folders searched for a name, in order. */
export function strategyFolders(strategiesDir?: string): string[] {
  if (strategiesDir !== undefined) return [strategiesDir];
  return BUILT_STRATEGIES_DIR !== undefined && existsSync(BUILT_STRATEGIES_DIR) ? [BUILT_STRATEGIES_DIR, DEFAULT_STRATEGIES_DIR] : [DEFAULT_STRATEGIES_DIR];
}

/** Names loadable from one folder (files and folders with an index), sorted. */
function namesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const names = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name.startsWith('_')) continue;
    if (entry.isFile() && isCodeFile(entry.name)) names.add(entry.name.replace(/\.[mc]?[jt]s$/, ''));
    else if (entry.isDirectory() && EXTENSIONS.some((e) => isFile(path.join(dir, entry.name, `index${e}`)))) names.add(entry.name);
  }
  return [...names].filter((n) => NAME.test(n)).sort();
}

/** Names loadable from the strategies folder (by default, every folder strategyFolders() searches), sorted. */
export function listStrategies(strategiesDir?: string): string[] {
  return [...new Set(strategyFolders(strategiesDir).flatMap(namesIn))].sort();
}

/** A reference is a path when it has a slash or a known extension; otherwise a name. */
function looksLikePath(ref: string): boolean {
  return ref.includes('/') || ref.includes('\\') || EXTENSIONS.some((e) => ref.endsWith(e));
}

/** Resolve a reference to a file, without importing it. */
export function resolveStrategy(ref: string, options: LoadOptions = {}): string {
  if (typeof ref !== 'string' || ref.trim() === '') throw new StrategyLoadError('bad-reference', 'strategy reference is empty: give a name from strategies/ or a path to a .ts/.js/.mjs file');
  if (looksLikePath(ref)) {
    const file = path.resolve(options.cwd ?? process.cwd(), ref);
    if (!isFile(file)) throw new StrategyLoadError('not-found', `strategy file not found: ${file}`, file);
    return file;
  }
  const dirs = strategyFolders(options.strategiesDir);
  if (NAME.test(ref)) {
    for (const dir of dirs) {
      for (const candidate of [...EXTENSIONS.map((e) => path.join(dir, `${ref}${e}`)), ...EXTENSIONS.map((e) => path.join(dir, ref, `index${e}`))]) {
        if (isFile(candidate)) return candidate;
      }
    }
  }
  const available = listStrategies(options.strategiesDir);
  const searched = dirs.filter((d) => existsSync(d));
  throw new StrategyLoadError(
    'unknown-strategy',
    `unknown strategy '${ref}'; available in ${(searched.length ? searched : dirs).join(' and ')}: ${available.length ? available.join(', ') : '(none)'} (or give a path such as ./my-strategy.ts)`,
  );
}

/** Whether a file is one of the compiled examples (dist/strategies/): plain JavaScript importing Halyard by relative paths. */
export function isBuiltExample(file: string): boolean {
  return BUILT_STRATEGIES_DIR !== undefined && file.startsWith(BUILT_STRATEGIES_DIR);
}
