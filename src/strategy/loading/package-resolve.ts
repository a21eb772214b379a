/**
 * Makes `import ... from 'halyard/strategy'` work in a strategy file anywhere on disk, with no
 * node_modules/halyard above it (a file in /tmp run by a checkout's bin, or by a global install).
 * A project that installed the package (docs/guides/strategy-project.md) does not need it: Node
 * resolves the name from its node_modules to the same files the bin runs, and the hook maps it to
 * exactly those. Node resolves a bare specifier only from node_modules folders above the importing
 * file (or, inside this repository, through the package's self-reference). `registerPackageResolution()` registers a resolve hook
 * (package-resolve-hook.mjs) that maps exactly the specifiers of package.json "exports" to this
 * installation's files: the strategy then shares every module, and so the defineStrategy brand,
 * with the Halyard that loads it. The loader calls it before importing a strategy, in whichever
 * thread loads it (the CLI's, a sweep worker's): hooks are registered per thread.
 */
import { readFileSync } from 'node:fs';
import { register } from 'node:module';

const PACKAGE_JSON = new URL('../../../package.json', import.meta.url);

/**
 * The export conditions of the code running now: this file is `.ts` when Halyard runs from its
 * sources (a checkout's bin without an up-to-date dist/, vitest), `.js` when built (dist/). A
 * strategy must get the modules that run, or it would hold a second copy of them: package.json's
 * `halyard-source` condition names the sources, `import` the built files.
 */
export const RUNNING_CONDITIONS: readonly string[] = import.meta.url.endsWith('.ts') ? ['halyard-source', 'import', 'node', 'default'] : ['import', 'node', 'default'];

/**
 * Bare specifier -> file URL for each entry of package.json "exports" (a string target, or the
 * first of `conditions` a conditional one has; patterns with `*` are not used and skipped).
 */
export function packageTargets(pkgUrl: URL = PACKAGE_JSON, conditions: readonly string[] = RUNNING_CONDITIONS): Record<string, string> {
  const pkg = JSON.parse(readFileSync(pkgUrl, 'utf8')) as { name?: unknown; exports?: unknown };
  const name = typeof pkg.name === 'string' ? pkg.name : undefined;
  const exportsField = pkg.exports;
  if (name === undefined || exportsField === undefined || exportsField === null) return {};
  const entries: [string, unknown][] =
    typeof exportsField === 'string' || !Object.keys(exportsField).some((k) => k.startsWith('.')) ? [['.', exportsField]] : Object.entries(exportsField as Record<string, unknown>);
  const targets: Record<string, string> = {};
  for (const [key, value] of entries) {
    if (key.includes('*')) continue;
    const target = pickTarget(value, conditions);
    if (target === undefined || !target.startsWith('./')) continue;
    const specifier = key === '.' ? name : `${name}${key.slice(1)}`;
    targets[specifier] = new URL(target, pkgUrl).href;
  }
  return targets;
}

function pickTarget(value: unknown, conditions: readonly string[]): string | undefined {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const branches = value as Record<string, unknown>;
  for (const c of conditions) {
    const t = pickTarget(branches[c], conditions);
    if (t !== undefined) return t;
  }
  return undefined;
}

let registered = false;

/** Register the hook in this thread, once (later calls do nothing). */
export function registerPackageResolution(): void {
  if (registered) return;
  // Built (this file is dist/strategy/loading/package-resolve.js), imports of the sources are sent to dist/ (the hook's builtOf).
  const built = import.meta.url.endsWith('.js') ? { src: new URL('../../../src/', import.meta.url).href, dist: new URL('../../', import.meta.url).href } : undefined;
  register(new URL('./package-resolve-hook.mjs', import.meta.url), { data: { targets: packageTargets(), ...(built ? { built } : {}) } });
  registered = true;
}
