/**
 * Makes `import ... from 'halyard/strategy'` work in a strategy file anywhere on disk. The package
 * is private, so an author outside this repository cannot install it, and Node resolves a bare
 * specifier only from node_modules folders above the importing file (or, inside this repository,
 * through the package's self-reference). `registerPackageResolution()` registers a resolve hook
 * (package-resolve-hook.mjs) that maps exactly the specifiers of package.json "exports" to this
 * installation's files: the strategy then shares every module, and so the defineStrategy brand,
 * with the Halyard that loads it. The loader calls it before importing a strategy, in whichever
 * thread loads it (the CLI's, a sweep worker's): hooks are registered per thread.
 */
import { readFileSync } from 'node:fs';
import { register } from 'node:module';

const PACKAGE_JSON = new URL('../../package.json', import.meta.url);

/**
 * Bare specifier -> file URL for each entry of package.json "exports" (a string target, or the
 * `import` / `default` branch of a conditional one; patterns with `*` are not used and skipped).
 */
export function packageTargets(pkgUrl: URL = PACKAGE_JSON): Record<string, string> {
  const pkg = JSON.parse(readFileSync(pkgUrl, 'utf8')) as { name?: unknown; exports?: unknown };
  const name = typeof pkg.name === 'string' ? pkg.name : undefined;
  const exportsField = pkg.exports;
  if (name === undefined || exportsField === undefined || exportsField === null) return {};
  const entries: [string, unknown][] =
    typeof exportsField === 'string' || !Object.keys(exportsField).some((k) => k.startsWith('.')) ? [['.', exportsField]] : Object.entries(exportsField as Record<string, unknown>);
  const targets: Record<string, string> = {};
  for (const [key, value] of entries) {
    if (key.includes('*')) continue;
    const target = pickTarget(value);
    if (target === undefined || !target.startsWith('./')) continue;
    const specifier = key === '.' ? name : `${name}${key.slice(1)}`;
    targets[specifier] = new URL(target, pkgUrl).href;
  }
  return targets;
}

function pickTarget(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const conditions = value as Record<string, unknown>;
  for (const c of ['import', 'node', 'default']) {
    const t = pickTarget(conditions[c]);
    if (t !== undefined) return t;
  }
  return undefined;
}

let registered = false;

/** Register the hook in this thread, once (later calls do nothing). */
export function registerPackageResolution(): void {
  if (registered) return;
  register(new URL('./package-resolve-hook.mjs', import.meta.url), { data: { targets: packageTargets() } });
  registered = true;
}
