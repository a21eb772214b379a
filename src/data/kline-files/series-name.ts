/**
 * Symbol and interval from a kline file's name, as the common dumps name them:
 * `BTCUSDT-1m.csv`, `LINKUSDT-1m-2026-02.csv`, `ETHUSDT_5m_2024.csv`, `BTCUSDT-1mo-2024-01.csv`
 * (archive files spell the month interval `1mo`, since `1M` and `1m` collide on some file systems),
 * compressed or not: `BTCUSDT-1m-2024-03.csv.gz`, `BTCUSDT-1m-2024-03.zip`.
 */
import { basename } from 'node:path';
import { isKlineInterval, type KlineInterval } from '../intervals.ts';

function tokens(file: string): string[] {
  return basename(file).replace(/(\.(csv|txt))?(\.(gz|zip))?$/i, '').split(/[-_.\s]+/).filter(Boolean);
}

export function intervalFromFileName(file: string): KlineInterval | undefined {
  for (const t of tokens(file)) {
    if (t === '1mo') return '1M';
    if (isKlineInterval(t)) return t;
  }
  return undefined;
}

export function symbolFromFileName(file: string): string | undefined {
  const first = tokens(file)[0];
  if (!first || !/^[A-Z0-9]{3,30}$/.test(first) || /^\d+$/.test(first) || isKlineInterval(first)) return undefined;
  return first;
}
