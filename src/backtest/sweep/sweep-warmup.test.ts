/**
 * A sweep's run over a journal range (no walk-forward window) of a strategy with a warmup per
 * interval gets the bars before `from` that warmup needs, as `halyard backtest --from` does; of
 * several symbols, each symbol's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSeries } from '../../core/synthetic/index.ts';
import { openJournal } from '../../journal/journal.ts';
import { closeDataSources } from './sweep-data.ts';
import { executeJob } from './sweep-exec.ts';
import type { BacktestJob } from './sweep-job.ts';

const INDEX = fileURLToPath(new URL('../../strategy/index.ts', import.meta.url));
const T0 = Date.UTC(2024, 0, 1);
const HOUR = 3_600_000;
let dir: string;
let job: Omit<BacktestJob, 'data'>;
let path: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-sweep-warmup-'));
  path = join(dir, 'j.db');
  const j = openJournal(path);
  const series = generateSeries({ seed: 2, startTime: T0, segments: [{ regime: 'flat', bars: 480 }] });
  j.klines.insertKlines([...series].map((c) => ({ symbol: 'BTCPHP', interval: '1m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
  j.klines.insertKlines([...series].map((c) => ({ symbol: 'ETHPHP', interval: '1m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
  j.close();
  const file = join(dir, 'hourly.mts');
  writeFileSync(
    file,
    `import { defineStrategy, z } from ${JSON.stringify(INDEX)};
export default defineStrategy({ name: 'hourly', params: z.object({ n: z.number().int().default(3) }), symbols: ['BTCPHP'], intervals: ['1m', '1h'], warmup: (p) => ({ '1h': p.n }), onBar: () => [] });
`,
  );
  job = { strategy: file, baseParams: {}, params: {}, symbol: 'BTCPHP', interval: '1m', instrument: { symbol: 'BTCPHP', status: 'TRADING', baseAsset: 'BTC', baseAssetPrecision: 8, quoteAsset: 'PHP', quoteAssetPrecision: 2, filters: [] }, fees: { maker: '0', taker: '0' }, balances: { PHP: '1000' } } as never;
});
afterAll(() => {
  closeDataSources();
  rmSync(dir, { recursive: true, force: true });
});

describe('sweep runs: warmup per interval', () => {
  it('load the bars before `from` its hours need; too few are said per interval', async () => {
    const warm = await executeJob({ ...job, data: { kind: 'journal', path, from: T0 + 4 * HOUR } });
    expect(warm).toMatchObject({ ok: true, barCount: 240 });
    expect('notices' in warm).toBe(false);
    const near = await executeJob({ ...job, data: { kind: 'journal', path, from: T0 + 2 * HOUR } });
    expect(near).toMatchObject({ ok: true, barCount: 360, notices: ["the 120 1m bars before the range did not cover the strategy's warmup (1h 3 bars): 1h had 2 of its 3 bars at the first bar; onBar first ran on bar 60 of 360"] });
  });

  it('of several symbols, load each symbol\'s bars before `from`', async () => {
    const file = join(dir, 'hourly-pair.mts');
    writeFileSync(
      file,
      `import { defineStrategy, z } from ${JSON.stringify(INDEX)};
export default defineStrategy({ name: 'hourly-pair', params: z.object({}), symbols: ['BTCPHP', 'ETHPHP'], intervals: ['1m', '1h'], warmup: { '1h': 3 }, onBar: () => [] });
`,
    );
    const eth = { ...job.instrument as object, symbol: 'ETHPHP', baseAsset: 'ETH' };
    const several = { ...job, strategy: file, symbol: 'BTCPHP,ETHPHP', symbols: [{ symbol: 'BTCPHP', instrument: job.instrument }, { symbol: 'ETHPHP', instrument: eth }] };
    const warm = await executeJob({ ...several, data: { kind: 'journal', path, from: T0 + 4 * HOUR } });
    expect(warm).toMatchObject({ ok: true, barCount: 240 });
    expect('notices' in warm).toBe(false);
    const near = await executeJob({ ...several, data: { kind: 'journal', path, from: T0 + 2 * HOUR } });
    expect(near).toMatchObject({ ok: true, notices: ["BTCPHP, ETHPHP: the 120 1m bars before the range did not cover the strategy's warmup (1h 3 bars): 1h had 2 of its 3 bars at the first bar; onBar first ran on bar 60 of 360"] });
  });
});
