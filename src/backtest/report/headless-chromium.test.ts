import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findChromium } from './headless-chromium.ts';

describe('findChromium', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'halyard-chromium-'));
  const fake = path.join(dir, 'chromium');
  writeFileSync(fake, '');
  const missing = path.join(dir, 'missing');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prefers CHROMIUM_PATH, then the Debian path, else reports none', () => {
    expect(findChromium({ CHROMIUM_PATH: fake }, missing)).toBe(fake);
    expect(findChromium({ CHROMIUM_PATH: missing }, fake)).toBe(fake);
    expect(findChromium({}, fake)).toBe(fake);
    expect(findChromium({ CHROMIUM_PATH: missing }, missing)).toBeUndefined();
  });
});
