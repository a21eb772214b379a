/**
 * docs/guides/strategy-project.md shows the files `halyard new-strategy --project` writes: its
 * tsconfig.json and package.json blocks are the scaffold's, byte for byte (the package.json with the
 * page's folder name and placeholder path). That those files type-check, test and backtest a
 * strategy against the packed package is test/packed-project.test.ts's. (Before the package was
 * built, this file checked the README's tsconfig `paths` into a checkout, which the page retired.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { projectFiles } from '../src/cli/commands/strategy/strategy-project-files.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const page = readFileSync(path.join(ROOT, 'docs/guides/strategy-project.md'), 'utf8');
const jsonBlocks = [...page.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1] as string);
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
const files = projectFiles({ dir: '/home/me/my-strategies', strategy: 'my-strategy', halyard: 'file:/path/to/halyard', halyardDevDependencies: pkg.devDependencies });

it("the page's tsconfig.json is the scaffold's (strict, exactOptionalPropertyTypes, no skipLibCheck, no paths into a checkout)", () => {
  const block = jsonBlocks.find((b) => b.includes('"compilerOptions"'));
  expect(block).toBe(files['tsconfig.json']);
  expect(block).not.toContain('skipLibCheck');
  expect(block).not.toContain('"paths"');
});

it("the page's package.json is the scaffold's", () => {
  expect(jsonBlocks.find((b) => b.includes('"dependencies"'))).toBe(files['package.json']);
});
