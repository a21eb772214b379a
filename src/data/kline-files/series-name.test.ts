import { describe, expect, it } from 'vitest';
import { intervalFromFileName, symbolFromFileName } from './series-name.ts';

describe('series from file name', () => {
  it.each([
    ['BTCUSDT-1m.csv', 'BTCUSDT', '1m'],
    ['/data/LINKUSDT-1m-2026-02.csv', 'LINKUSDT', '1m'],
    ['ETHUSDT_5m_2024.csv', 'ETHUSDT', '5m'],
    ['BTCUSDT-1mo-2024-01.csv', 'BTCUSDT', '1M'],
    ['BTCPHP-1h.CSV', 'BTCPHP', '1h'],
    ['klines.csv', undefined, undefined],
    ['2024-01-01-1d.csv', undefined, '1d'],
    ['BTCUSDT-1m-2024-03.csv.gz', 'BTCUSDT', '1m'],
    ['/data/ETHUSDT-1h-2024-03.CSV.GZ', 'ETHUSDT', '1h'],
    ['BTCUSDT-1m-2024-03.zip', 'BTCUSDT', '1m'],
    ['klines.zip', undefined, undefined],
  ])('%s -> %s %s', (file, symbol, interval) => {
    expect(symbolFromFileName(file)).toBe(symbol);
    expect(intervalFromFileName(file)).toBe(interval);
  });
});
