/**
 * Bars from the journal (what `halyard import` / `record` stored), read lazily in chunks by
 * KlineStore.iterateKlines so a year of 1-minute bars never sits in memory. The journal is opened
 * read-only; `symbol` maps the sandbox symbol to the journal's series.
 */
import { intervalMs, type KlineInterval } from '../../../data/intervals.ts';
import { K, openJournal } from '../../../journal/index.ts';
import type { BarSource, SourceBar } from './types.ts';

export interface JournalSourceOptions {
  readonly file: string;
  /** The journal's symbol. */
  readonly symbol: string;
  readonly interval: Exclude<KlineInterval, '1M'>;
  readonly from?: number | undefined;
  readonly to?: number | undefined;
}

export function journalBarSource(options: JournalSourceOptions): BarSource {
  const journal = openJournal(options.file, { readonly: true });
  const { symbol, interval, from, to } = options;
  if (journal.klines.klineRange(symbol, interval, from, to) === undefined) {
    journal.close();
    throw new RangeError(`${options.file}: no ${symbol} ${interval} klines in the requested time range`);
  }
  return {
    label: `journal:${options.file} ${symbol} ${interval}`,
    intervalMs: intervalMs(interval) ?? 60_000,
    *bars(): Generator<SourceBar> {
      for (const t of journal.klines.iterateKlines(symbol, interval, from, to)) {
        yield { openTime: t[K.openTime], open: t[K.open], high: t[K.high], low: t[K.low], close: t[K.close], volume: t[K.volume] };
      }
    },
    close: () => journal.close(),
  };
}
