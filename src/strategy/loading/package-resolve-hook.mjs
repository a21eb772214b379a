/**
 * Module resolve hook (node:module register(), Node >= 20.6) registered by package-resolve.ts:
 * the bare specifiers of this installation's package.json "exports" (`halyard`,
 * `halyard/strategy`, `halyard/strategy/testing`) resolve to its files, wherever the importing
 * file is, so a strategy outside the repository can import them without installing the (private)
 * package. The file URL is passed on down the chain (tsx then loads the TypeScript), exactly as if
 * the strategy had imported the absolute path. Every other specifier is left alone, except that a
 * `.ts` or `.js` file Node would load as CommonJS (no package.json with "type": "module" above it) is
 * loaded as an ES module (see `resolve`).
 *
 * Plain JavaScript: hooks run on Node's loader thread, where TypeScript may not load yet.
 */

import { existsSync } from 'node:fs';

/** @type {Map<string, string>} specifier -> file URL */
let targets = new Map();
/** The package's name (`halyard`): the one specifier without a subpath. */
let packageName;

/** When Halyard runs built: its src/ and dist/ folders as file URLs (see `builtOf`). */
let built;

/** @param {{ targets: Record<string, string>, built?: { src: string, dist: string } }} data */
export function initialize(data) {
  targets = new Map(Object.entries(data.targets));
  built = data.built;
  packageName = [...targets.keys()].find((k) => !k.includes('/'));
}

/**
 * @param {string} specifier
 * @param {object} context
 * @param {(specifier: string, context: object) => unknown} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  const url = targets.get(specifier);
  // A misspelt subpath (`halyard/strategi`) is no export: outside this repository Node would say
  // "Cannot find package 'halyard'", as if nothing were mapped. Name the ones there are.
  if (url === undefined && packageName !== undefined && specifier.startsWith(`${packageName}/`)) {
    const error = new Error(`'${specifier}' is not something Halyard exports: import from ${[...targets.keys()].map((k) => `'${k}'`).join(', ')}`);
    error.code = 'ERR_PACKAGE_PATH_NOT_EXPORTED';
    throw error;
  }
  const r = await nextResolve(url ?? specifier, context);
  // A `.ts` or `.js` file outside any package that says "type": "module" is CommonJS to Node and
  // tsx, and CommonJS cannot import Halyard's ES modules: a strategy written in a plain folder (and
  // the helpers it imports) failed to load. A strategy can only be an ES module (the package has no
  // CommonJS entry): load such files as one. `.cts`, `.cjs`, `.mts`, `.mjs` and files under
  // node_modules keep what the chain decided.
  if (r.format === 'commonjs' && r.url.startsWith('file:') && /\.[jt]s$/.test(r.url) && !r.url.includes('/node_modules/')) return { ...r, format: 'module' };
  const compiled = builtOf(r.url);
  return compiled === undefined ? r : { url: compiled, format: 'module', shortCircuit: true };
}

/**
 * A strategy in a checkout that imports Halyard by a relative path (the examples in strategies/:
 * `../src/strategy/index.ts`) while Halyard runs built: the built module (`dist/strategy/index.js`)
 * instead, so the strategy shares the running copy of Halyard rather than loading a second one
 * from the sources through tsx (slower, and two copies of every module). Only when that file was
 * built; otherwise the source loads as before.
 */
function builtOf(url) {
  if (built === undefined || !url.startsWith(built.src) || !url.endsWith('.ts')) return undefined;
  const target = `${built.dist}${url.slice(built.src.length, -'.ts'.length)}.js`;
  return existsSync(new URL(target)) ? target : undefined;
}
