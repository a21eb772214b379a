import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../test-support.ts';
import { strategiesCommand } from './strategies.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-strategies-cmd-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (argv: string[]) => runCommand(strategiesCommand, argv);

describe('halyard strategies', () => {
  it('lists the strategies with their parameters: what each accepts, its default or that it is required', async () => {
    const r = await run(['strategies']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^grid: Evenly spaced LIMIT buys/m);
    expect(r.out).toMatch(/^ {2}lower +a decimal > 0 +\(required\)$/m);
    expect(r.out).toMatch(/^ {2}levels +integer >= 2 and <= 200 +10$/m);
    expect(r.out).toMatch(/^sma-crossover: /m);
    expect(r.out).toMatch(/^ {2}quantity +a decimal > 0 +\(optional\)$/m);
    expect(r.out).toMatch(/^ {2}interval +a kline interval \(1m, 5m, 1h, 1d \.\.\. 1M\) +1m$/m);
    expect(r.out).toMatch(/^ {2}symbol +string of at least 1 character +BTCPHP$/m);
    // What each trades with its defaults, or which parameters it needs first.
    expect(r.out).toMatch(/^ {2}quoteAmount .*\n {2}with its defaults: BTCPHP on 1m, warmup 31 bars$/m);
    expect(r.out).toMatch(/^ {2}with its defaults: give lower, upper, quantity first$/m);
    expect(r.out).toMatch(/^ {2}with its defaults: BTCPHP on 1m, onTimer every 1h$/m);
  });

  it('shows one by name or path; an unknown one is a usage error listing the others', async () => {
    const index = fileURLToPath(new URL('../../../strategy/index.ts', import.meta.url));
    const file = join(dir, 'bare.mts');
    writeFileSync(file, `import { defineStrategy, z } from ${JSON.stringify(index)};\nexport default defineStrategy({ name: 'bare', params: z.object({}), symbols: ['BTCPHP'], onBar: () => [] });\n`);
    expect((await run(['strategies', file])).out).toBe('bare\n  (no parameters)\n  with its defaults: BTCPHP on 1m');
    const bad = await run(['strategies', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/unknown strategy 'nope'; available in .*: dca, grid, market-maker, pair-rotation, rsi-exits, rsi-guarded, sma-crossover/);
  });

  it('a named file whose module throws as it loads is a usage error naming it (exit 2), not a listing', async () => {
    const file = join(dir, 'throws.mts');
    writeFileSync(file, `throw new TypeError('boom at import');\n`);
    const r = await run(['strategies', file]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/throws\.mts: boom at import/);
    expect(r.out).toBe('');
  });
});
