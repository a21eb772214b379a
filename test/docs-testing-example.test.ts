/**
 * The testing kit's example of docs/guides/testing-strategies.md (the README's "Testing it" until
 * the docs were split) runs as written: its imports pointed at this repository, its `expect`s are
 * vitest's, and they hold.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'halyard-docs-testing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("the page's runOnRegime example runs and its expectations hold", async () => {
  const page = readFileSync(path.join(ROOT, 'docs/guides/testing-strategies.md'), 'utf8');
  const block = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string).find((b) => b.includes('runOnRegime(smaCrossover'));
  expect(block).toBeDefined();
  // The block is written as a test file beside strategies/ would hold it: its relative imports
  // become this repository's files, and its statements the body of a function the test calls.
  const lines = block!.split('\n');
  const imports = lines.filter((l) => l.startsWith('import ')).map((l) =>
    l
      .replace("'../src/strategy/testing/index.ts'", JSON.stringify(path.join(ROOT, 'src/strategy/testing/index.ts')))
      .replace("'./sma-crossover.ts'", JSON.stringify(path.join(ROOT, 'strategies/sma-crossover.ts'))),
  );
  const body = lines.filter((l) => !l.startsWith('import ')).join('\n');
  const file = path.join(dir, 'example.ts');
  writeFileSync(file, `import { expect } from 'vitest';\n${imports.join('\n')}\nexport function example(): unknown {\n${body}\nreturn { intents, logs };\n}\n`);
  const { example } = (await import(file)) as { example: () => { intents: unknown[]; logs: unknown[] } };
  const result = example();
  expect(result.intents.length).toBeGreaterThan(0);
});
