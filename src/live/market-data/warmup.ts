/**
 * A strategy's warm-up bars (issue 21 deliverable 1: "warm-up bars come from the journal, topped
 * up from REST, before its first live bar"): the `count` most recent CLOSED bars, oldest first.
 *
 * The journal is read first (a restarted bot has most of them already); what it lacks at the recent
 * end, from its last bar on, is asked over REST (spec 4.4 klines, paced like every pipeline call)
 * and recorded, so the next start finds it. A journal whose bars for the window are not one
 * unbroken run gets the whole window from REST instead: a hole in the middle cannot be told from
 * a quiet period without asking, and asking the whole window costs only ceil(count / 1000) calls.
 */
import type { Candle } from '../../core/indicators/candle.ts';
import { candleFromText } from '../../core/indicators/candle.ts';
import { nextOpen, periodOpen } from '../../core/market/intervals.ts';
import type { Interval } from '../../strategy/types.ts';
import { journalRow } from './candles.ts';
import { fetchClosedBars, type RestBarsDeps } from './rest-bars.ts';
import type { MarketDataJournal } from './types.ts';

export interface WarmupDeps extends RestBarsDeps {
  readonly journal?: MarketDataJournal | undefined;
}

export async function warmupBars(deps: WarmupDeps, symbol: string, interval: Interval, count: number): Promise<Candle[]> {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`warm-up count must be a whole number >= 0, got ${count}`);
  if (count === 0) return [];
  const to = periodOpen(interval, deps.now());
  let from = to;
  for (let i = 0; i < count; i++) from = periodOpen(interval, from - 1);

  const stored = (deps.journal?.klines(symbol, interval, from, to) ?? []).map((r) => candleFromText(r.openTime, r.closeTime, r));
  const unbroken = stored.length > 0 && stored[0]!.openTime === from && stored.every((c, i) => i === 0 || c.openTime === nextOpen(interval, stored[i - 1]!.openTime));
  const restFrom = unbroken ? nextOpen(interval, stored[stored.length - 1]!.openTime) : from;
  const fetched = restFrom < to ? await fetchClosedBars(deps, symbol, interval, restFrom, to) : [];
  if (fetched.length > 0 && deps.journal) {
    try {
      deps.journal.insertKlines(fetched.map((c) => journalRow(symbol, interval, c, 'rest')));
    } catch (err) {
      deps.log({ level: 'error', topic: 'journal', time: deps.now(), message: `warm-up ${symbol} ${interval}: recording ${fetched.length} REST bars failed: ${err instanceof Error ? err.message : String(err)}`, detail: err });
    }
  }
  const bars = unbroken ? [...stored, ...fetched] : mergeByOpen(stored, fetched);
  deps.log({ level: 'info', topic: 'warmup', time: deps.now(), message: `warm-up ${symbol} ${interval}: ${bars.length} of ${count} bars (${unbroken ? stored.length : 0} from the journal, ${fetched.length} from REST)` });
  return bars.slice(-count);
}

/** REST's bar wins where both have one (the venue is the truth; the journal may hold another source's row). */
function mergeByOpen(stored: readonly Candle[], fetched: readonly Candle[]): Candle[] {
  const byOpen = new Map<number, Candle>();
  for (const c of stored) byOpen.set(c.openTime, c);
  for (const c of fetched) byOpen.set(c.openTime, c);
  return [...byOpen.values()].sort((a, b) => a.openTime - b.openTime);
}
