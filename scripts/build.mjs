#!/usr/bin/env node
/**
 * `npm run build` (and `prepare`, so `npm ci` / `npm install` of a clone builds): compiles src/
 * (not its tests) to dist/ as JavaScript, declarations and source maps (tsconfig.build.json,
 * incremental: a build after a small change takes seconds), copies the files tsc does not emit
 * (the report pages' browser scripts, the plain .mjs worker and hook entries), compiles the example
 * strategies (strategies/, below), then stamps the build.
 *
 * The example strategies ship compiled (issue 25: start-up; an installed package can run
 * `--strategy sma-crossover`): strategies/X.ts -> dist/strategies/X.js, so the loader imports them
 * with no tsx and no TypeScript compile at run time. Each file is transpiled alone (TypeScript's
 * transpileModule: the same compiler and target as the rest of dist/; tsc type-checks them in
 * `npm run typecheck`), its imports of the sources (`../src/strategy/index.ts`) pointed at the
 * built modules (`../strategy/index.js`): a compiled example shares the running copy of Halyard.
 * Then dist/strategies/descriptions.json: what `halyard strategies` prints of each (its
 * formatStrategy block), computed here from the compiled modules, so that listing them loads
 * neither zod nor the strategy layer (test/strategies-built.test.ts holds it equal to the
 * command's output from the sources).
 *
 * The stamp (dist/.built) carries the time the build STARTED: bin/halyard.mjs runs dist/ only
 * when no file under src/ is newer than it, so a source edited during or after a build is never
 * shadowed by stale compiled code (the bin then runs the sources through tsx). A build that fails
 * (a type error) leaves no stamp, and the bin keeps running the sources.
 *
 * Plain JavaScript: it runs before anything is built.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');
const STAMP = path.join(DIST, '.built');
const STRATEGIES = path.join(ROOT, 'strategies');
const DIST_STRATEGIES = path.join(DIST, 'strategies');
/** The module whose formatStrategy() `halyard strategies` prints (built). */
const FORMAT_MODULE = path.join(DIST, 'cli/commands/strategy/strategies-format.js');

/** Files under src/ that tsc does not emit and the code reads or runs from its own folder. */
const isAsset = (name) => /\.(m?js|json|html|css)$/.test(name) && !/\.test\./.test(name);

const started = new Date();
rmSync(STAMP, { force: true });
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
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

/**
 * Outputs whose source is gone (a file moved or deleted since the last build): tsc's incremental
 * build never removes them, and a stale module left in dist/ would be shipped and could still be
 * imported by a path nobody updated. A clean clone has none; a working copy after a move would.
 */
const sourceOf = (rel) => {
  const base = rel.replace(/\.d\.ts\.map$|\.d\.ts$|\.js\.map$|\.js$/, '');
  return base === rel ? [rel] : [`${base}.ts`, `${base}.js`, `${base}.mjs`];
};
let pruned = 0;
const prune = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    const rel = path.relative(DIST, at);
    if (rel === 'strategies' || rel.startsWith('.')) continue;
    if (entry.isDirectory()) {
      prune(at);
      if (readdirSync(at).length === 0) rmSync(at, { recursive: true });
    } else if (!sourceOf(rel).some((r) => existsSync(path.join(SRC, r)))) {
      rmSync(at);
      pruned++;
    }
  }
};
prune(DIST);

/** A strategy source: code, not a test or a declaration. */
const isStrategySource = (name) => /\.(m?ts|m?js)$/.test(name) && !/\.(test|spec)\.[mc]?[jt]s$/.test(name) && !name.endsWith('.d.ts');

/**
 * A relative import of a strategy file, for its compiled copy: into src/ -> the same module in
 * dist/; within strategies/ -> unchanged (the folder keeps its shape). Anything else would not be
 * in the package: the build fails naming it.
 */
function builtSpecifier(spec, fromFile) {
  if (!spec.startsWith('./') && !spec.startsWith('../')) return spec;
  const target = path.resolve(path.dirname(fromFile), spec);
  const outDir = path.dirname(path.join(DIST_STRATEGIES, path.relative(STRATEGIES, fromFile)));
  let rel;
  if (target.startsWith(SRC + path.sep)) rel = path.relative(outDir, path.join(DIST, path.relative(SRC, target)));
  else if (target.startsWith(STRATEGIES + path.sep)) return spec;
  else throw new Error(`build: ${path.relative(ROOT, fromFile)} imports ${spec}, outside src/ and strategies/: the compiled example could not load it`);
  rel = rel.split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** transpileModule transformer: the module specifiers of import/export declarations and import() through builtSpecifier. */
const pointAtDist = (ts, fromFile) => (context) => {
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const spec = builtSpecifier(node.moduleSpecifier.text, fromFile);
      if (spec !== node.moduleSpecifier.text) {
        return ts.isImportDeclaration(node)
          ? context.factory.updateImportDeclaration(node, node.modifiers, node.importClause, context.factory.createStringLiteral(spec), node.attributes)
          : context.factory.updateExportDeclaration(node, node.modifiers, node.isTypeOnly, node.exportClause, context.factory.createStringLiteral(spec), node.attributes);
      }
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments.length > 0 && ts.isStringLiteral(node.arguments[0])) {
      const spec = builtSpecifier(node.arguments[0].text, fromFile);
      if (spec !== node.arguments[0].text) return context.factory.updateCallExpression(node, node.expression, node.typeArguments, [context.factory.createStringLiteral(spec), ...node.arguments.slice(1)]);
    }
    return ts.visitEachChild(node, visit, context);
  };
  return (file) => ts.visitNode(file, visit);
};

/** strategies/ -> dist/strategies/ (JavaScript), the folder's shape kept; tests are left out. */
function compileStrategies() {
  const ts = require('typescript');
  rmSync(DIST_STRATEGIES, { recursive: true, force: true });
  let count = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const from = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(from);
      else if (isStrategySource(entry.name)) {
        const to = path.join(DIST_STRATEGIES, path.relative(STRATEGIES, from)).replace(/\.(m?)ts$/, '.$1js');
        mkdirSync(path.dirname(to), { recursive: true });
        if (/\.m?js$/.test(entry.name)) copyFileSync(from, to);
        else {
          const out = ts.transpileModule(readFileSync(from, 'utf8'), {
            fileName: from,
            compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true, rewriteRelativeImportExtensions: true },
            transformers: { before: [pointAtDist(ts, from)] },
          });
          writeFileSync(to, out.outputText);
        }
        count++;
      }
    }
  };
  walk(STRATEGIES);
  return count;
}

/**
 * dist/strategies/descriptions.json: { name: { file, text } } for each compiled example loadable by
 * name, `text` being what `halyard strategies` prints of it. Computed from the compiled modules in
 * this process (the build runs after tsc, so it describes exactly what was built).
 */
async function describeStrategies() {
  const { formatStrategy } = await import(pathToFileURL(FORMAT_MODULE).href);
  const { listStrategies, resolveStrategy } = await import(pathToFileURL(path.join(DIST, 'strategy/loading/strategy-names.js')).href);
  const strategies = {};
  for (const name of listStrategies(DIST_STRATEGIES)) {
    const file = resolveStrategy(name, { strategiesDir: DIST_STRATEGIES });
    const def = (await import(pathToFileURL(file).href)).default;
    strategies[name] = { file: path.relative(DIST_STRATEGIES, file).split(path.sep).join('/'), text: formatStrategy(def) };
  }
  writeFileSync(path.join(DIST_STRATEGIES, 'descriptions.json'), `${JSON.stringify({ strategies }, null, 1)}\n`);
  return Object.keys(strategies).length;
}

let strategies = 0;
let described = 0;
try {
  strategies = compileStrategies();
  described = await describeStrategies();
} catch (e) {
  console.error(`build: the example strategies: ${e instanceof Error ? e.stack : String(e)}; dist/ is not stamped, the bin runs the sources`);
  process.exit(1);
}

writeFileSync(STAMP, `${started.toISOString()}\n`);
utimesSync(STAMP, started, started);
console.log(`build: dist/ up to date (${copied} assets copied, ${pruned} stale outputs removed, ${strategies} example strategies compiled, ${described} described, ${((Date.now() - started.getTime()) / 1000).toFixed(1)} s)`);
