import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The package's own names (`halyard`, `halyard/strategy`, `halyard/strategy/testing`) resolve to
// the sources in tests (package.json "exports", condition `halyard-source`), not to dist/: the
// tests test the code as it is, built or not.
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { name: string; exports: Record<string, Record<string, string>> };
const alias = Object.entries(pkg.exports).map(([key, conditions]) => ({
  find: new RegExp(`^${pkg.name}${key.slice(1).replaceAll('/', '\\/')}$`),
  replacement: fileURLToPath(new URL(conditions['halyard-source'] as string, import.meta.url)),
}));

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'strategies/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
  },
});
