/**
 * Loading strategy plugins: a reference (a name from the project's `strategies/` folder, or a
 * path) resolved by strategy-names.ts, imported, and checked. A TypeScript strategy loads through
 * tsx: when Halyard runs compiled (dist/), the loader registers it in the loading thread before the
 * first `.ts`/`.mts` strategy (so commands that load none, `.js` strategies and the compiled
 * examples by name never load it); run from its sources, tsx (the bin's fallback) or vitest
 * already transforms TypeScript.
 * Before the import of a user's file, package-resolve.ts registers a resolve hook in the loading
 * thread, so a file anywhere on disk can `import ... from 'halyard/strategy'` (the package's
 * "exports") and gets this installation's modules, and a `.ts` or `.js` file in a folder with no
 * `"type": "module"` package.json loads as the ES module it must be. A compiled example
 * (dist/strategies/) needs neither: it imports the built modules by relative paths, and
 * registering a hook starts Node's hooks thread (about 0.1 s).
 *
 * Every failure is a StrategyLoadError saying what to do: an unknown name lists the available
 * ones; a module that fails to import (syntax error, a throw at top level, a bad definition)
 * names the file; a module without a default export, or whose default export is not a
 * defineStrategy() result, says so.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isStrategyDefinition } from '../define.ts';
import type { AnyStrategyDefinition } from '../define.ts';
import { StrategyLoadError } from '../errors.ts';
import { registerPackageResolution } from './package-resolve.ts';
import { isBuiltExample, resolveStrategy, type LoadOptions } from './strategy-names.ts';

export { DEFAULT_STRATEGIES_DIR, listStrategies, resolveStrategy, type LoadOptions } from './strategy-names.ts';

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

export interface LoadedStrategy {
  readonly definition: AnyStrategyDefinition;
  /** Absolute path of the module. */
  readonly file: string;
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
  if (!isBuiltExample(file)) {
    // tsx first: the package hook, registered after it, then runs first and hands tsx the file URL.
    await registerTypeScript(file);
    // `import ... from 'halyard/strategy'` resolves to this installation from any folder.
    registerPackageResolution();
  }
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
