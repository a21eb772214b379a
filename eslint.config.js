// Lint: typescript-eslint's recommended rules, plus the one-way import rule of
// docs/architecture.md: core imports nothing of ours outside core; ports only core;
// exchange, sandbox, journal, backtest, strategy, engine, data and live never import app, cli or main.ts
// (live: the live venue adapter, over core, ports, exchange, journal, log, time and rxjs)
// (backtest imports engine: runBacktest is its own composition root).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const layer = (files, forbidden, why) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: forbidden.map((group) => ({ group: [group], message: why })) },
    ],
  },
});

// src/backtest/ by concept, lowest first: a folder imports only the folders before it (and the
// backtest's types.ts), so data flows one way: bars (sources) -> what a run records -> the run ->
// metrics -> outputs -> searches over runs -> reports. Folders on one level (an inner array) don't
// import each other. Tests are exempt (they check a folder end to end through the later ones).
// Each rule repeats the adapters' ban on the composition root, because a later config's
// no-restricted-imports replaces an earlier one's for the same files.
const BACKTEST_ORDER = ['sources', 'record', 'run', 'metrics', 'output', 'sweep', ['compare', 'walk-forward', 'warmup'], 'report', 'live-compare'];
function backtestLayers() {
  const levels = BACKTEST_ORDER.map((l) => (Array.isArray(l) ? l : [l]));
  const order = levels.map((l) => l.join(' | ')).join(' < ');
  const rootBan = ['**/app/**', '**/cli/**', '**/main.ts'];
  const banned = (folders, prefix) => folders.flatMap((f) => [`${prefix}${f}/**`, `**/backtest/${f}/**`]);
  const tests = ['**/*.test.ts', '**/*-test-support.ts'];
  return [
    { ...layer(['src/backtest/types.ts'], [...rootBan, ...banned(levels.flat(), './')], 'backtest/types.ts is the contract every backtest folder reads: it imports none of them'), ignores: tests },
    ...levels.map((folders, i) => ({
      ...layer(
        folders.map((f) => `src/backtest/${f}/**/*.ts`),
        [...rootBan, ...banned([...levels.slice(i + 1).flat(), ...(folders.length > 1 ? folders : [])], '../')],
        `backtest folders import one way (${order}; eslint.config.js BACKTEST_ORDER, docs/architecture.md): ${folders.join(', ')} may import only the folders before`,
      ),
      ignores: tests,
    })),
  ];
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'coverage/**', 'backtest/out/**', 'bench/out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setImmediate: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', Buffer: 'readonly', performance: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  layer(
    ['src/core/**/*.ts'],
    ['**/exchange/**', '**/sandbox/**', '**/engine/**', '**/app/**', '**/cli/**', '**/journal/**', '**/backtest/**', '**/log/**', '**/ports/**', '**/time/**', 'node:*', 'undici', 'ws', 'pino', 'rxjs', 'better-sqlite3', 'yargs'],
    'core is pure: it imports only core and decimal.js (docs/architecture.md)',
  ),
  layer(
    ['src/ports/**/*.ts'],
    ['**/exchange/**', '**/sandbox/**', '**/engine/**', '**/app/**', '**/cli/**', '**/journal/**', '**/backtest/**'],
    'ports are interfaces over core only',
  ),
  layer(
    ['src/exchange/**/*.ts', 'src/sandbox/**/*.ts', 'src/journal/**/*.ts', 'src/backtest/**/*.ts', 'src/strategy/**/*.ts', 'src/engine/**/*.ts', 'src/data/**/*.ts', 'src/fs/**/*.ts', 'src/log/**/*.ts', 'src/time/**/*.ts', 'src/config/**/*.ts', 'src/live/**/*.ts'],
    ['**/app/**', '**/cli/**', '**/main.ts'],
    'adapters and engine never import the composition root or the CLI',
  ),
  ...backtestLayers(),
);
