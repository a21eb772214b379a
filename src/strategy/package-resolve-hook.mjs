/**
 * Module resolve hook (node:module register(), Node >= 20.6) registered by package-resolve.ts:
 * the bare specifiers of this installation's package.json "exports" (`halyard`,
 * `halyard/strategy`, `halyard/strategy/testing`) resolve to its files, wherever the importing
 * file is, so a strategy outside the repository can import them without installing the (private)
 * package. The file URL is passed on down the chain (tsx then loads the TypeScript), exactly as if
 * the strategy had imported the absolute path. Every other specifier is left alone.
 *
 * Plain JavaScript: hooks run on Node's loader thread, where TypeScript may not load yet.
 */

/** @type {Map<string, string>} specifier -> file URL */
let targets = new Map();

/** @param {{ targets: Record<string, string> }} data */
export function initialize(data) {
  targets = new Map(Object.entries(data.targets));
}

/**
 * @param {string} specifier
 * @param {object} context
 * @param {(specifier: string, context: object) => unknown} nextResolve
 */
export function resolve(specifier, context, nextResolve) {
  const url = targets.get(specifier);
  return nextResolve(url ?? specifier, context);
}
