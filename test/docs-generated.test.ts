/**
 * The generated references (docs/reference/cli.md, docs/reference/config.md, the config JSON
 * Schemas, docs/reference/strategy-api.md) are byte-equal to what the code generates now (issue 26, deliverable 3): a command,
 * option or config key added or changed without `npm run docs:gen` fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generatedDocs, ROOT } from '../scripts/gen-docs.ts';
import { configSchema } from '../src/config/schema.ts';
import { COMMANDS } from '../src/cli/commands/catalog.ts';

const generated = await generatedDocs();

describe('generated references', () => {
  for (const [file, content] of generated) {
    it(`${file} is what the code generates`, () => {
      let committed: string;
      try {
        committed = readFileSync(path.join(ROOT, file), 'utf8');
      } catch {
        throw new Error(`${file} is missing: run \`npm run docs:gen\` and commit it`);
      }
      if (committed !== content) {
        expect.fail(`${file} differs from what the code generates: run \`npm run docs:gen\` and commit it`);
      }
    });
  }

  it('the CLI reference has every command of the catalogue', () => {
    const cli = generated.get('docs/reference/cli.md')!;
    for (const name of Object.keys(COMMANDS)) expect(cli).toContain(`\n## ${name}\n`);
  });

  it('the JSON Schema accepts the example config and refuses an unknown key, as the zod schema does', () => {
    const schema = JSON.parse(generated.get('config/halyard.schema.json')!) as { properties: Record<string, unknown>; additionalProperties: boolean };
    const example = JSON.parse(readFileSync(path.join(ROOT, 'config/example.json'), 'utf8')) as Record<string, unknown>;
    expect(configSchema.safeParse(example).success).toBe(true);
    for (const key of Object.keys(example)) expect(schema.properties).toHaveProperty(key);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }).properties ?? {}).sort());
  });
});
