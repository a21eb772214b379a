#!/usr/bin/env -S node --max-semi-space-size=1
// Entry for the `halyard` bin and `npm start`: runs the compiled CLI (dist/main.js). tsx is
// registered only when a user's TypeScript strategy is loaded (strategy/loading/loader.ts), not here; the
// example strategies by name (`--strategy sma-crossover`) load compiled, from dist/strategies/.
//
// --max-semi-space-size=1 (V8's young generation kept at 1 MB semi-spaces): the semi-spaces V8
// grows under a start-up's allocation otherwise stay committed for the whole process. Measured
// (BENCHMARKS.md, "Live bot"): the bot (3 strategies x 5 symbols, an hour) 144 -> 113 MB after a
// GC, 162-170 -> 142 MB peak, CPU per bar unchanged; a year's `halyard backtest` 229 -> 221 MB
// peak, CPU unchanged. V8 sizes its heap before any script runs, so the flag works only on node's
// command line: here (`env -S`, GNU coreutils 8.30+ and macOS), and in package.json's `start`.
//
// In a checkout (src/ beside dist/), dist/ runs only while it is up to date (dist-fresh.mjs): built
// (scripts/build.mjs stamps dist/.built with the time its build started) and no source under src/
// or strategies/ (the examples, compiled to dist/strategies/) changed since.
// Otherwise the sources run through tsx, as before there was a build, so a checkout being edited
// never runs stale code; `npm run build` brings the fast path back. An installed package has no
// src/ and always runs dist/. HALYARD_BIN=source or HALYARD_BIN=dist chooses regardless (tests, benches).
import { existsSync } from 'node:fs';
import { distUpToDate } from './dist-fresh.mjs';

const root = new URL('../', import.meta.url);

function runsBuilt() {
  if (process.env.HALYARD_BIN === 'source') return false;
  if (process.env.HALYARD_BIN === 'dist') return true;
  if (!existsSync(new URL('src/', root))) return true;
  return distUpToDate(root);
}

if (runsBuilt()) {
  await import('../dist/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
