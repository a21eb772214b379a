// Whether a checkout's dist/ is up to date: built (scripts/build.mjs stamps dist/.built with the
// time its build STARTED) and nothing it compiles changed since: no source under src/ or
// strategies/ (the example strategies, compiled to dist/strategies/) is newer (tests aside: they
// are not built), and no strategy was added, removed or renamed (strategies/'s own time, which such
// a change moves). bin/halyard.mjs runs dist/ only then; the tests and benches that run the built
// bin build first otherwise. Plain JavaScript: it runs before anything is built.
import { existsSync, readdirSync, statSync } from 'node:fs';

/** Whether a file under `dir` (a folder URL; tests aside) is newer than `since` (ms). */
function changedSince(dir, since) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (changedSince(new URL(`${entry.name}/`, dir), since)) return true;
    } else if (!entry.name.includes('.test.') && statSync(new URL(entry.name, dir)).mtimeMs > since) return true;
  }
  return false;
}

/** @param {URL} root the package's folder (with a trailing slash) */
export function distUpToDate(root) {
  const stamp = new URL('dist/.built', root);
  if (!existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  const src = new URL('src/', root);
  if (existsSync(src) && changedSince(src, built)) return false;
  const strategies = new URL('strategies/', root);
  return !existsSync(strategies) || (statSync(strategies).mtimeMs <= built && !changedSince(strategies, built));
}
