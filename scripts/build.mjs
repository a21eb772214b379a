#!/usr/bin/env node
/**
 * `npm run build` (and `prepare`, so `npm ci` / `npm install` of a clone builds): compiles src/
 * (not its tests) to dist/ as JavaScript, declarations and source maps (tsconfig.build.json,
 * incremental: a build after a small change takes seconds), copies the files tsc does not emit
 * (the report pages' browser scripts, the plain .mjs worker and hook entries), then stamps the
 * build.
 *
 * The stamp (dist/.built) carries the time the build STARTED: bin/halyard.mjs runs dist/ only
 * when no file under src/ is newer than it, so a source edited during or after a build is never
 * shadowed by stale compiled code (the bin then runs the sources through tsx). A build that fails
 * (a type error) leaves no stamp, and the bin keeps running the sources.
 *
 * Plain JavaScript: it runs before anything is built.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');
const STAMP = path.join(DIST, '.built');

/** Files under src/ that tsc does not emit and the code reads or runs from its own folder. */
const isAsset = (name) => /\.(m?js|json|html|css)$/.test(name) && !/\.test\./.test(name);

const started = new Date();
rmSync(STAMP, { force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
if (r.status !== 0) {
  console.error(`build: tsc failed (exit ${r.status ?? r.signal}); dist/ is not stamped, the bin runs the sources`);
  process.exit(r.status || 1);
}

let copied = 0;
const copyAssets = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const from = path.join(dir, entry.name);
    if (entry.isDirectory()) copyAssets(from);
    else if (isAsset(entry.name)) {
      const to = path.join(DIST, path.relative(SRC, from));
      mkdirSync(path.dirname(to), { recursive: true });
      copyFileSync(from, to);
      copied++;
    }
  }
};
copyAssets(SRC);

writeFileSync(STAMP, `${started.toISOString()}\n`);
utimesSync(STAMP, started, started);
console.log(`build: dist/ up to date (${copied} assets copied, ${((Date.now() - started.getTime()) / 1000).toFixed(1)} s)`);
