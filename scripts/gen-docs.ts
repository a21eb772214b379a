/**
 * `npm run docs:gen`: writes the references made from the code (issue 26, deliverable 3), so they
 * cannot drift from it: docs/reference/cli.md (every command's --help), docs/reference/config.md
 * and the config files' JSON Schemas (from the zod schemas), docs/reference/strategy-api.md (the
 * exported types of halyard/strategy and halyard/strategy/testing). test/docs-generated.test.ts fails
 * when a committed file differs from what this generates. Deterministic: no time, no terminal
 * width, no machine-specific paths. `--check` writes nothing and exits 1 naming the stale files.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliReference } from './docs/cli-reference.ts';
import { CONFIG_FILES, configReference, jsonSchemaOf } from './docs/config-reference.ts';
import { strategyApiReference } from './docs/strategy-api-reference.ts';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Every generated file, by its path from the repository's root, with its content. */
export async function generatedDocs(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  files.set('docs/reference/cli.md', await cliReference());
  files.set('docs/reference/config.md', configReference());
  files.set('docs/reference/strategy-api.md', strategyApiReference(ROOT));
  for (const file of CONFIG_FILES) files.set(file.schemaPath, JSON.stringify(jsonSchemaOf(file), null, 2) + '\n');
  return files;
}

/** The generated files whose committed copy is missing or differs. */
export async function staleDocs(): Promise<string[]> {
  const stale: string[] = [];
  for (const [file, content] of await generatedDocs()) {
    let committed: string | undefined;
    try {
      committed = readFileSync(path.join(ROOT, file), 'utf8');
    } catch {
      committed = undefined;
    }
    if (committed !== content) stale.push(file);
  }
  return stale;
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes('--check')) {
    const stale = await staleDocs();
    if (stale.length === 0) return 0;
    process.stderr.write(`stale generated references: ${stale.join(', ')}; run \`npm run docs:gen\`\n`);
    return 1;
  }
  for (const [file, content] of await generatedDocs()) {
    mkdirSync(path.dirname(path.join(ROOT, file)), { recursive: true });
    writeFileSync(path.join(ROOT, file), content);
    process.stdout.write(`wrote ${file}\n`);
  }
  return 0;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
