/**
 * The source tree stays navigable (issue 26 deliverable 5): no folder under src/ holds more than
 * about 30 files directly (tests included: they sit beside the code they check). A folder that
 * grows past that splits by concept into subfolders, as src/backtest/ did.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LIMIT = 32;

function folders(dir: string, out: { folder: string; files: number }[] = []): { folder: string; files: number }[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  out.push({ folder: relative(ROOT, dir), files: entries.filter((e) => e.isFile()).length });
  for (const e of entries) if (e.isDirectory()) folders(join(dir, e.name), out);
  return out;
}

describe('src/ layout', () => {
  it(`no folder holds more than ${LIMIT} files directly`, () => {
    const crowded = folders(join(ROOT, 'src')).filter((f) => f.files > LIMIT).map((f) => `${f.folder}: ${f.files} files`);
    expect(crowded).toEqual([]);
  });
});
