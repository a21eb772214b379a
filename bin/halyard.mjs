#!/usr/bin/env -S node --max-semi-space-size=1
// Entry for the `halyard` bin and `npm start`: runs the compiled CLI (dist/main.js). tsx is
// registered only when a TypeScript strategy is loaded (strategy/loader.ts), not here.
//
// --max-semi-space-size=1 (V8's young generation kept at 1 MB semi-spaces): the semi-spaces V8
// grows under a start-up's allocation otherwise stay committed for the whole process. Measured
// (BENCHMARKS.md, "Live bot"): the bot (3 strategies x 5 symbols, an hour) 144 -> 113 MB after a
// GC, 162-170 -> 142 MB peak, CPU per bar unchanged; a year's `halyard backtest` 229 -> 221 MB
// peak, CPU unchanged. V8 sizes its heap before any script runs, so the flag works only on node's
// command line: here (`env -S`, GNU coreutils 8.30+ and macOS), and in package.json's `start`.
//
// In a checkout (src/ beside dist/), dist/ runs only while it is up to date: built (scripts/build.mjs
// stamps dist/.built with the time its build started) and no source under src/ changed since.
// Otherwise the sources run through tsx, as before there was a build, so a checkout being edited
// never runs stale code; `npm run build` brings the fast path back. An installed package has no
// src/ and always runs dist/. HALYARD_BIN=source or HALYARD_BIN=dist chooses regardless (tests, benches).
import { existsSync, readdirSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const src = new URL('src/', root);
const stamp = new URL('dist/.built', root);

/** Whether a file under `dir` (tests aside: they are not built) is newer than `since` (ms). */
function changedSince(dir, since) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (changedSince(new URL(`${entry.name}/`, dir), since)) return true;
    } else if (!entry.name.includes('.test.') && statSync(new URL(entry.name, dir)).mtimeMs > since) return true;
  }
  return false;
}

function runsBuilt() {
  if (process.env.HALYARD_BIN === 'source') return false;
  if (process.env.HALYARD_BIN === 'dist') return true;
  if (!existsSync(src)) return true;
  if (!existsSync(stamp)) return false;
  return !changedSince(src, statSync(stamp).mtimeMs);
}

if (runsBuilt()) {
  await import('../dist/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
