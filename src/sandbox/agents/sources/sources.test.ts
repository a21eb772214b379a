import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openJournal } from '../../../journal/index.ts';
import { parseMarketAgentsConfig, resolveMarkets, type MarketAgentsConfigInput } from '../config.ts';
import { rulesOf } from '../test-support.ts';
import { csvBarSource } from './csv-source.ts';
import { openBarSource, type BarSource, type SourceBar } from './index.ts';
import { journalBarSource } from './journal-source.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'halyard-sources-'));
  dirs.push(d);
  return d;
}
const first = (s: BarSource, n: number): SourceBar[] => {
  const out: SourceBar[] = [];
  for (const b of s.bars()) {
    out.push(b);
    if (out.length === n) break;
  }
  return out;
};
const T = Date.UTC(2024, 0, 1);

describe('csv source', () => {
  it('reads 6- and 12-column files, with the interval from the file', () => {
    const d = tmp();
    writeFileSync(join(d, 'a.csv'), `${T},1,2,0.5,1.5,10\n${T + 300_000},1.5,2,1,1.2,3\n`);
    const six = csvBarSource({ file: join(d, 'a.csv') });
    expect(six.intervalMs).toBe(300_000);
    expect([...six.bars()]).toEqual([
      { openTime: T, open: '1', high: '2', low: '0.5', close: '1.5', volume: '10' },
      { openTime: T + 300_000, open: '1.5', high: '2', low: '1', close: '1.2', volume: '3' },
    ]);
    writeFileSync(join(d, 'XUSDT-1m.csv'), [0, 1, 2].map((i) => `${T + i * 60_000},1,2,0.5,1.5,10,${T + i * 60_000 + 59_999},15,3,5,7.5,0`).join('\n'));
    const twelve = csvBarSource({ file: join(d, 'XUSDT-1m.csv'), from: T + 60_000 });
    expect(twelve.intervalMs).toBe(60_000);
    expect([...twelve.bars()].map((b) => b.openTime)).toEqual([T + 60_000, T + 120_000]);
    expect(() => csvBarSource({ file: join(d, 'XUSDT-1m.csv'), from: T + 600_000 })).toThrow(/no bars/);
    expect(() => csvBarSource({ file: join(d, 'missing.csv') })).toThrow(/cannot read/);
  });
});

describe('journal source', () => {
  it('replays a series lazily, mapped from another symbol, and refuses a missing one', () => {
    const file = join(tmp(), 'j.db');
    const j = openJournal(file);
    j.klines.insertKlines(
      [0, 1, 2, 3].map((i) => ({ symbol: 'BTCUSDT', interval: '1m', openTime: T + i * 60_000, open: '10', high: '12', low: '9', close: `1${i}`, volume: '1', closeTime: T + i * 60_000 + 59_999, source: 'test' })),
    );
    j.close();
    const s = journalBarSource({ file, symbol: 'BTCUSDT', interval: '1m', to: T + 180_000 });
    expect(s.intervalMs).toBe(60_000);
    expect([...s.bars()].map((b) => b.close)).toEqual(['10', '11', '12']);
    expect([...s.bars()]).toHaveLength(3);
    s.close();
    expect(() => journalBarSource({ file, symbol: 'ETHUSDT', interval: '1m' })).toThrow(/no ETHUSDT 1m klines/);
  });
});

describe('synthetic source (openBarSource)', () => {
  const open = (input: MarketAgentsConfigInput, last?: string) => openBarSource(resolveMarkets(parseMarketAgentsConfig(input))[0]!, rulesOf(), last);

  it('never ends: cycles join at the close, on the symbol tick, the same for the same seed', () => {
    const cfg: MarketAgentsConfigInput = { markets: [{ symbol: 'ETHUSDT', source: { type: 'synthetic', startPrice: '2000', regimes: [{ regime: 'flat', bars: 5 }] } }] };
    const bars = first(open(cfg), 23);
    expect(bars).toHaveLength(23);
    expect(bars[0]!.open).toBe('2000.00');
    bars.slice(1).forEach((b, i) => expect(b.open).toBe(bars[i]!.close));
    expect(bars.every((b) => /^\d+\.\d{2}$/.test(b.close))).toBe(true);
    expect(first(open(cfg), 23)).toEqual(bars);
    expect(first(open({ ...cfg, seed: 2 }), 23).map((b) => b.close)).not.toEqual(bars.map((b) => b.close));
  });

  it('starts from the last traded price, else 100, when no start price is configured', () => {
    expect(first(open({ markets: [{ symbol: 'ETHUSDT' }] }, '1234.5'), 1)[0]!.open).toBe('1234.50');
    expect(first(open({ markets: [{ symbol: 'ETHUSDT' }] }), 1)[0]!.open).toBe('100.00');
  });
});
