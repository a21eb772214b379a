// dist/ brought up to date before a test or benchmark runs the built package: built (scripts/build.mjs,
// incremental) unless bin/dist-fresh.mjs says it already is, by the rule bin/halyard.mjs uses to
// choose dist/ over the sources. One place for the tests and benches that need the build.
// Plain JavaScript, like build.mjs: it runs before anything is built.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { distUpToDate } from '../bin/dist-fresh.mjs';

const ROOT = new URL('../', import.meta.url);

/** Builds dist/ when it is not up to date; what was done. Throws with the build's output when it fails. */
export function ensureBuilt() {
  if (distUpToDate(ROOT)) return 'dist/ up to date';
  const r = spawnSync(process.execPath, [fileURLToPath(new URL('scripts/build.mjs', ROOT))], { cwd: fileURLToPath(ROOT), encoding: 'utf8' });
  // Exit 0 and the build's closing line: a build that stopped short (killed, say) is no build.
  if (r.status !== 0 || !/dist\/ up to date/.test(r.stdout)) throw new Error(`the build failed (exit ${String(r.status ?? r.signal)}):\n${r.stdout}${r.stderr}`);
  return 'dist/ built first';
}
