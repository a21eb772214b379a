/**
 * Loading strategy plugins, by path (`./my-strat.ts`, `.js`, `.mjs`, absolute) or by name from
 * the project's `strategies/` folder (`sma-crossover` -> `strategies/sma-crossover.ts`, or
 * `strategies/sma-crossover/index.ts`), as Freqtrade loads a strategy by name from its user
 * folder. A TypeScript strategy loads through tsx: when Halyard runs compiled (dist/), the loader
 * registers it in the loading thread before the first `.ts`/`.mts` strategy (so commands that load
 * none, and `.js` strategies, never load it); run from its sources, tsx (the bin's fallback) or
 * vitest already transforms TypeScript.
 * Before the import, package-resolve.ts registers a resolve hook in the loading thread, so a file
 * anywhere on disk can `import ... from 'halyard/strategy'` (the package's "exports") and gets
 * this installation's modules, and a `.ts` or `.js` file in a folder with no `"type": "module"`
 * package.json loads as the ES module it must be.
 *
 * Every failure is a StrategyLoadError saying what to do: an unknown name lists the available
 * ones; a module that fails to import (syntax error, a throw at top level, a bad definition)
 * names the file; a module without a default export, or whose default export is not a
 * defineStrategy() result, says so.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isStrategyDefinition } from './define.ts';
import type { AnyStrategyDefinition } from './define.ts';
import { StrategyLoadError } from './errors.ts';
import { registerPackageResolution } from './package-resolve.ts';

/** This module runs compiled (dist/*.js): nothing transforms TypeScript until tsx is registered. */
const COMPILED = import.meta.url.endsWith('.js');
let typeScriptRegistered = false;

/** Registers tsx in this thread before the first TypeScript strategy, when Halyard runs compiled. */
async function registerTypeScript(file: string): Promise<void> {
  if (!COMPILED || typeScriptRegistered || !/\.[cm]?ts$/.test(file)) return;
  const { register } = await import('tsx/esm/api');
  register();
  typeScriptRegistered = true;
}

/** `<project>/strategies`, found from this file's place in the tree (not from the cwd). */
export const DEFAULT_STRATEGIES_DIR = fileURLToPath(new URL('../../strategies/', import.meta.url));

const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'] as const;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export interface LoadOptions {
  /** Folder searched for names; default DEFAULT_STRATEGIES_DIR. */
  readonly strategiesDir?: string;
  /** Base for relative paths; default process.cwd(). */
  readonly cwd?: string;
}

export interface LoadedStrategy {
  readonly definition: AnyStrategyDefinition;
  /** Absolute path of the module. */
  readonly file: string;
}

const isFile = (p: string) => existsSync(p) && statSync(p).isFile();
const isCodeFile = (f: string) => EXTENSIONS.some((e) => f.endsWith(e)) && !/\.(test|spec)\.[mc]?[jt]s$/.test(f) && !f.endsWith('.d.ts');

/** Names loadable from the strategies folder (files and folders with an index), sorted. */
export function listStrategies(strategiesDir: string = DEFAULT_STRATEGIES_DIR): string[] {
  if (!existsSync(strategiesDir)) return [];
  const names = new Set<string>();
  for (const entry of readdirSync(strategiesDir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name.startsWith('_')) continue;
    if (entry.isFile() && isCodeFile(entry.name)) names.add(entry.name.replace(/\.[mc]?[jt]s$/, ''));
    else if (entry.isDirectory() && EXTENSIONS.some((e) => isFile(path.join(strategiesDir, entry.name, `index${e}`)))) names.add(entry.name);
  }
  return [...names].filter((n) => NAME.test(n)).sort();
}

/** A reference is a path when it has a slash or a known extension; otherwise a name. */
function looksLikePath(ref: string): boolean {
  return ref.includes('/') || ref.includes('\\') || EXTENSIONS.some((e) => ref.endsWith(e));
}

/** Resolve a reference to a file, without importing it. */
export function resolveStrategy(ref: string, options: LoadOptions = {}): string {
  const dir = options.strategiesDir ?? DEFAULT_STRATEGIES_DIR;
  if (typeof ref !== 'string' || ref.trim() === '') throw new StrategyLoadError('bad-reference', 'strategy reference is empty: give a name from strategies/ or a path to a .ts/.js/.mjs file');
  if (looksLikePath(ref)) {
    const file = path.resolve(options.cwd ?? process.cwd(), ref);
    if (!isFile(file)) throw new StrategyLoadError('not-found', `strategy file not found: ${file}`, file);
    return file;
  }
  if (NAME.test(ref)) {
    for (const candidate of [...EXTENSIONS.map((e) => path.join(dir, `${ref}${e}`)), ...EXTENSIONS.map((e) => path.join(dir, ref, `index${e}`))]) {
      if (isFile(candidate)) return candidate;
    }
  }
  const available = listStrategies(dir);
  throw new StrategyLoadError(
    'unknown-strategy',
    `unknown strategy '${ref}'; available in ${dir}: ${available.length ? available.join(', ') : '(none)'} (or give a path such as ./my-strategy.ts)`,
  );
}

/**
 * Why a module failed when Node loaded it as CommonJS: CommonJS cannot import Halyard's ES modules
 * while the CLI runs (Node reports a require() of an ES module "in a cycle"). The resolve hook
 * loads `.ts` and `.js` files as ES modules wherever they are (package-resolve-hook.mjs); this
 * still explains a file that reaches Node as CommonJS another way (a `.cts` or `.cjs`, or a loader
 * without the hook).
 */
export function commonJsHint(file: string, e: unknown): string {
  const code = (e as { code?: unknown } | undefined)?.code;
  const message = e instanceof Error ? e.message : '';
  if (code !== 'ERR_REQUIRE_CYCLE_MODULE' && code !== 'ERR_REQUIRE_ESM' && !/require\(\) (of )?ES Module/i.test(message)) return '';
  const ext = path.extname(file);
  const esm = ext === '.ts' ? '.mts' : ext === '.js' ? '.mjs' : undefined;
  return `\n  the file was loaded as CommonJS (no package.json with "type": "module" above it), which cannot import Halyard's ES modules: ${esm ? `rename it to ${path.basename(file, ext)}${esm}, or ` : ''}put a package.json containing {"type": "module"} in its folder`;
}

/**
 * The transform (tsx's esbuild) names a syntax error in `x.mts` or `x.cts` as `x.ts:2:8`: the
 * message is made to name the file as it is.
 */
export function ownFileName(message: string, file: string): string {
  const ext = path.extname(file);
  if (ext === '.ts') return message;
  const stem = file.slice(0, file.length - ext.length);
  return message.split(`${stem}.ts:`).join(`${file}:`);
}

/** Resolve, import and check a strategy module. */
export async function loadStrategy(ref: string, options: LoadOptions = {}): Promise<LoadedStrategy> {
  const file = resolveStrategy(ref, options);
  // tsx first: the package hook, registered after it, then runs first and hands tsx the file URL.
  await registerTypeScript(file);
  // `import ... from 'halyard/strategy'` resolves to this installation from any folder.
  registerPackageResolution();
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (e) {
    const why = ownFileName(e instanceof Error ? e.message : String(e), file);
    throw new StrategyLoadError('import-failed', `could not load strategy ${file}: ${why}${commonJsHint(file, e)}`, file, { cause: e });
  }
  if (!('default' in mod) || mod['default'] === undefined) {
    const named = Object.keys(mod).filter((k) => isStrategyDefinition(mod[k]));
    const hint = named.length ? ` (it exports ${named.map((n) => `'${n}'`).join(', ')}: make it the default export)` : '';
    throw new StrategyLoadError('no-default-export', `strategy ${file} has no default export; end it with \`export default defineStrategy({...})\`${hint}`, file);
  }
  const definition = mod['default'];
  if (!isStrategyDefinition(definition)) {
    throw new StrategyLoadError('not-a-strategy', `the default export of ${file} is not a strategy: wrap it in defineStrategy({...}) from src/strategy/index.ts`, file);
  }
  return Object.freeze({ definition, file });
}
