/**
 * What a replay of one live strategy starts from, read from the journal: the bars its run
 * recorded (closed after the run started and before it stopped, as the live strategy got them)
 * with the bars before as its warm-up, its starting balances and its fee rates. A missing piece is
 * a ReplayInputError saying what is missing and how to supply it.
 */
import { D, type Dec } from '../../core/money/decimal.ts';
import { INTERVAL_MS, type KlineInterval } from '../../data/intervals.ts';
import type { Journal } from '../../journal/journal.ts';
import type { LiveRunRecord } from '../../journal/runs/live-run-store.ts';
import { fmtTime } from '../metrics/metrics-format.ts';
import type { RecordedBar } from './bars.ts';

/** Bad or missing input for a comparison: the CLI reports it as bad input (exit 2). */
export class ReplayInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplayInputError';
  }
}

export interface RunBars {
  readonly bars: RecordedBar[];
  readonly history: RecordedBar[];
}

/** Milliseconds of one bar (a month counted as 31 days: only used to size the warm-up). */
export const barMs = (interval: string): number => (INTERVAL_MS as Record<string, number>)[interval] ?? 31 * 86_400_000;

/**
 * The run's bars of `symbol` and `interval`, and up to `historyBars` bars closed before the run
 * started. None in the run's span: a ReplayInputError naming the span and how to record it.
 */
export function runBars(journal: Journal, run: LiveRunRecord, symbol: string, interval: KlineInterval, historyBars: number): RunBars {
  const start = run.startedAt;
  const end = run.endedAt ?? Number.MAX_SAFE_INTEGER;
  const from = start - barMs(interval) * (historyBars + 2);
  const rows = journal.klines.klines(symbol, interval, Math.max(0, from), end);
  const toBar = (k: (typeof rows)[number]): RecordedBar => ({ openTime: k.openTime, closeTime: k.closeTime, open: k.open, high: k.high, low: k.low, close: k.close, volume: k.volume });
  const bars = rows.filter((k) => k.closeTime >= start && k.closeTime < end).map(toBar);
  if (bars.length === 0) {
    const span = `${fmtTime(start)} -> ${run.endedAt === null ? 'now (still running)' : fmtTime(run.endedAt)}`;
    const held = journal.klines.klineRange(symbol, interval);
    const has = held === undefined ? `it holds no ${symbol} ${interval} bars at all` : `it holds ${symbol} ${interval} bars from ${fmtTime(held.first)} to ${fmtTime(held.last)} only`;
    throw new ReplayInputError(`no ${symbol} ${interval} bars recorded for run ${run.id}'s span (${span}) in ${journal.file}: ${has}. The live run records each closed bar it trades on; for a run that did not, fetch them with \`halyard record --symbol ${symbol} --interval ${interval} --from ${new Date(start).toISOString()}\``);
  }
  const history = historyBars <= 0 ? [] : rows.filter((k) => k.closeTime < start).slice(-historyBars).map(toBar);
  return { bars, history };
}

/**
 * Starting balances: the run's first balance snapshot of the quote assets the symbols trade (free
 * and locked), the base assets at 0: a live strategy's position starts from the run's own fills
 * (the order manager's positions come from fills), so the replay starts flat too.
 */
export function runBalances(journal: Journal, run: LiveRunRecord, quoteAssets: readonly string[], baseAssets: readonly string[]): { balances: Record<string, string>; from: string } {
  const snap = journal.balances.byRun(run.id)[0] ?? journal.balances.at(run.startedAt);
  if (snap === undefined) throw new ReplayInputError(`no starting balances: ${journal.file} holds no balance snapshot of run ${run.id} (nor one before it started); give them with --balance ASSET=AMOUNT`);
  const balances: Record<string, string> = {};
  for (const asset of quoteAssets) {
    const line = snap.balances.find((b) => b.asset === asset);
    balances[asset] = line === undefined ? '0' : new D(line.free).plus(line.locked).toFixed();
  }
  for (const asset of baseAssets) if (!(asset in balances)) balances[asset] = '0';
  return { balances, from: `the run's balance snapshot of ${fmtTime(snap.takenAt)} for ${quoteAssets.join(', ')}; base assets at 0, as the live positions start from the run's own fills` };
}

/**
 * The fee rates the live fills paid, per role: the most common commission / (base received for a
 * BUY charged in base, quote otherwise), to 6 significant digits (a commission rounded to its asset's precision moves the rate past that). A role with no fill is undefined.
 */
export function liveFeeRates(journal: Journal, runId: string, baseOf: (symbol: string) => string | undefined): { maker?: string; taker?: string } {
  const counts = { maker: new Map<string, number>(), taker: new Map<string, number>() };
  for (const f of journal.fills.list({ runId })) {
    const base = baseOf(f.symbol);
    const on: Dec = new D(f.commissionAsset === base ? f.qty : f.quoteQty);
    if (on.isZero()) continue;
    const rate = new D(f.commission).div(on).toSignificantDigits(6).toFixed();
    const m = f.isMaker ? counts.maker : counts.taker;
    m.set(rate, (m.get(rate) ?? 0) + 1);
  }
  const top = (m: Map<string, number>): string | undefined => [...m].sort((a, b) => b[1] - a[1])[0]?.[0];
  const maker = top(counts.maker);
  const taker = top(counts.taker);
  return { ...(maker === undefined ? {} : { maker }), ...(taker === undefined ? {} : { taker }) };
}
