/**
 * `halyard record --symbol S --interval I --from DATE [--to DATE] [--journal PATH] [--base-url URL]`:
 * backfill klines from the exchange into the journal (src/data/backfill.ts). Pages of 1000 (spec 4.4
 * limit max), paced by the client's weight budget (spec 8), one transaction per page, resumable:
 * run it again after an interruption and it continues after the last stored bar. Ctrl-C (SIGINT,
 * SIGTERM: io.signal) stops it once the page in flight is saved.
 * It fetches every bar of the range the journal lacks and has never asked for: before the first
 * stored bar, after the last, and in the holes between stored stretches (data/kline-holes.ts). A
 * minute without a trade has no kline, so the journal remembers the ranges the exchange has
 * answered for (`kline_checked`): a hole it answered empty is not asked for again.
 * The range is [from, to) on open time; `--to` defaults to now (only closed bars are stored).
 * The symbol is checked first against the exchange's exchangeInfo, whose answer is saved as the
 * journal's snapshot: one the exchange does not list is refused (exit 2) before the journal is
 * opened; rules that cannot be fetched otherwise are a warning naming what backtests will use.
 */
import type { ClientHandle } from '../../../app/create-client.ts';
import { loadConfig } from '../../../config/load.ts';
import type { HalyardConfig } from '../../../config/schema.ts';
import { SingleBar } from 'cli-progress';
import type { Argv } from 'yargs';
import { journalBars } from '../../../backtest/sources/sources.ts';
import { backfillKlines, BackfillError, type BackfillProgress, type BackfillResult } from '../../../data/backfill.ts';
import { findHoles, type Holes } from '../../../data/kline-holes.ts';
import { isKlineInterval, KLINE_INTERVALS, type KlineInterval } from '../../../data/intervals.ts';
import { formatTime, notATimeReason, parseTimeText } from '../../../data/time-text.ts';
import { resolveJournalPath } from '../../../journal/journal-path.ts';
import type { Journal } from '../../../journal/journal.ts';
import { UsageError } from '../../errors.ts';
import { JOURNAL_OPTION, openUserJournal } from '../../journal-file.ts';
import type { CliIo } from '../../io.ts';
import { exchangeBaseUrl, withClient, type GlobalArgs } from '../../with-client.ts';
import { isUnknownSymbol, unknownSymbol } from '../../unknown-symbol.ts';
import { COMMANDS } from '../catalog.ts';

export interface RecordArgs extends GlobalArgs {
  symbol?: string;
  interval?: string;
  from?: string;
  to?: string;
  journal?: string;
}

export interface RecordCommandOptions {
  /** Show a progress bar (default: stdout is a TTY); otherwise plain progress lines every `linesEvery` pages. */
  tty?: boolean;
  linesEvery?: number;
  /** Wall time for `--to` default and the closed-bar check; default the exchange clock estimate. */
  now?: () => number;
}

export function recordCommand(io: CliIo, options: RecordCommandOptions = {}) {
  return {
    ...COMMANDS.record,
    builder: (y: Argv<GlobalArgs>) =>
      y
        .option('symbol', { type: 'string', demandOption: true, describe: 'symbol, e.g. BTCPHP' })
        .option('interval', { type: 'string', demandOption: true, choices: KLINE_INTERVALS, describe: 'kline interval' })
        .option('from', { type: 'string', demandOption: true, describe: 'first open time: 2024-03-01, 2024-03-01T12:00 (UTC) or epoch ms' })
        .option('to', { type: 'string', describe: 'end, exclusive (default: now)' })
        .option('journal', JOURNAL_OPTION),
    handler: async (args: RecordArgs) => {
      await runRecord(io, args, options);
    },
  };
}

function timeArg(name: string, text: string): number {
  const ms = parseTimeText(text);
  if (ms === undefined) throw new UsageError(`--${name} '${text}' is not a date (${notATimeReason(text)})`);
  return ms;
}

export async function runRecord(io: CliIo, args: RecordArgs, options: RecordCommandOptions = {}): Promise<BackfillResult> {
  const symbol = (args.symbol ?? '').trim().toUpperCase();
  if (!/^[A-Z0-9]{2,30}$/.test(symbol)) throw new UsageError(`--symbol '${args.symbol ?? ''}' is not a symbol`);
  const interval = args.interval ?? '';
  if (!isKlineInterval(interval)) throw new UsageError(`--interval '${interval}' is not one of ${KLINE_INTERVALS.join(', ')}`);
  if (!args.from) throw new UsageError('--from is required');
  const from = timeArg('from', args.from);
  const explicitTo = args.to === undefined ? undefined : timeArg('to', args.to);
  if (explicitTo !== undefined && explicitTo <= from) throw new UsageError(`--to ${formatTime(explicitTo)} is not after --from ${formatTime(from)}`);

  const config = loadConfig(args.config as string | undefined);
  // A bad exchange address is refused before the journal file is created.
  exchangeBaseUrl(io, args, config);
  const path = resolveJournalPath(args.journal, io.env, config.journal.path);

  let result: BackfillResult | undefined;
  await withClient(io, args, async ({ client }) => {
    const serverClock = client.rest.serverClock;
    // Best effort: with the offset known, "closed" means closed on the exchange's clock.
    await serverClock.resync().catch(() => undefined);
    const now = options.now ?? (() => serverClock.now());
    const to = explicitTo ?? now();
    if (to <= from) throw new UsageError(`--from ${formatTime(from)} is in the future`);
    // The rules in force now, so a backtest of these bars uses the exchange's filters (journal
    // exchangeInfo snapshots), not a guess. A symbol the exchange does not list is bad input,
    // refused before the journal is opened (or created).
    const rules = await exchangeRules(client.general, symbol);
    const journal = openUserJournal(path, { createDirs: true });
    try {
      let unsaved = 'problem' in rules ? rules.problem : undefined;
      if ('body' in rules) {
        try {
          journal.exchangeInfo.save(now(), rules.body);
        } catch (e) {
          unsaved = e instanceof Error ? e.message : String(e);
        }
      }
      if (unsaved !== undefined) io.err(`warning: the exchange's rules for ${symbol} were not saved (${unsaved}); ${rulesFallback(journal, config, symbol)}`);
      result = await fill(io, journal, { symbol, interval, from, to, now, options, fetch: (req) => client.market.klines(req), signal: io.signal });
    } finally {
      journal.close();
    }
  });
  return result!;
}

type ExchangeInfoBody = Awaited<ReturnType<ClientHandle['client']['general']['exchangeInfo']>>;

/**
 * The exchange's rules for `symbol`, or why they could not be fetched (the record goes on: the
 * klines may still come). An unknown symbol is a UsageError: the exchange answers -1025 naming
 * 'symbol' (spec 7.3), -1121 (legacy), or an answer that does not list it.
 */
async function exchangeRules(general: ClientHandle['client']['general'], symbol: string): Promise<{ body: ExchangeInfoBody } | { problem: string }> {
  let body: ExchangeInfoBody;
  try {
    body = await general.exchangeInfo({ symbol });
  } catch (e) {
    if (isUnknownSymbol(e)) throw unknownSymbol(symbol, e.venueMessage);
    return { problem: e instanceof Error ? e.message : String(e) };
  }
  if (!body.symbols.some((s) => s.symbol === symbol)) throw unknownSymbol(symbol, undefined);
  return { body };
}


/** What a backtest of these bars will take as the rules when this record saved none (backtest/sources/sources.ts instrumentAt). */
function rulesFallback(journal: Journal, config: HalyardConfig, symbol: string): string {
  // The newest snapshot listing the symbol (another symbol's snapshot taken since does not hide it).
  const snapshot = journal.exchangeInfo.listing(symbol, Number.MAX_SAFE_INTEGER);
  if (snapshot) return `backtests will use the rules of the journal's exchangeInfo snapshot of ${formatTime(snapshot.takenAt)}`;
  if (config.sandbox.symbols.some((s) => s.symbol === symbol)) return `backtests will use the sandbox config's rules for ${symbol}`;
  return `the journal and the sandbox config have no rules for ${symbol}: a backtest will need them from a file (--exchange-info RULES.json), or run record again`;
}

interface FillSetup {
  symbol: string;
  interval: KlineInterval;
  from: number;
  to: number;
  now: () => number;
  options: RecordCommandOptions;
  fetch: Parameters<typeof backfillKlines>[0]['fetch'];
  /** SIGINT/SIGTERM (main.ts): stop after the page in flight is saved; a second run resumes. */
  signal: AbortSignal | undefined;
}

async function fill(io: CliIo, journal: Journal, s: FillSetup): Promise<BackfillResult> {
  const { symbol, interval, from, to } = s;
  const tty = s.options.tty ?? process.stdout.isTTY === true;
  const every = Math.max(1, s.options.linesEvery ?? 10);
  const bar = tty
    ? new SingleBar({ format: `${symbol} ${interval} [{bar}] {percentage}% | {value}/{total} bars | saved {saved} | {time}`, hideCursor: true, clearOnComplete: false, stream: process.stdout })
    : undefined;
  const before = journal.klines.klineRange(symbol, interval, from, to);
  const holes = holesOf(journal, s);
  io.out(`Recording ${symbol} ${interval} ${formatTime(from)} .. ${formatTime(to)} into ${journal.file}` + (before ? `; ${before.count} bars already stored, ${plan(holes, before)}resuming after ${formatTime(before.last)}` : ''));

  let started = false;
  const onPage = (p: BackfillProgress) => {
    if (bar) {
      if (!started) bar.start(p.total, 0, { saved: 0, time: '' });
      started = true;
      bar.update(p.done, { saved: p.saved, time: p.last === undefined ? '' : `up to ${formatTime(p.last)}` });
    } else if (p.pages % every === 0) {
      const upTo = p.last === undefined ? '' : `, up to ${formatTime(p.last)}`;
      io.out(`  ${p.done}/${p.total} bars (${Math.floor((100 * p.done) / Math.max(1, p.total))}%), ${p.saved} saved${upTo}`);
    }
  };

  try {
    const result = await backfillKlines({
      symbol,
      interval,
      from,
      to,
      fetch: s.fetch,
      now: s.now,
      lastStored: () => journal.klines.klineRange(symbol, interval, from, to)?.last,
      spans: () => holes.spans,
      save: (bars) => {
        journal.klines.insertKlines(bars.map((b) => ({ ...b, symbol, interval, source: 'rest' })));
      },
      checked: (start, end) => journal.klineChecked.add(symbol, interval, start, end),
      onPage,
      ...(s.signal ? { signal: s.signal } : {}),
    });
    bar?.stop();
    const held = journal.klines.klineRange(symbol, interval, from, to);
    const why = result.stop === 'now' ? ' (stopped at the bar still forming)' : result.stop === 'no-more-data' ? ' (the exchange has no later bars in the range)' : '';
    io.out(
      `Saved ${result.saved} bars in ${result.pages} request(s)${why}` +
        (result.first !== undefined ? `, ${formatTime(result.first)} .. ${formatTime(result.last!)}` : '') +
        (held ? `\n  journal holds ${held.count} bars of ${symbol} ${interval} in the range, ${formatTime(held.first)} .. ${formatTime(held.last)}` : ''),
    );
    return result;
  } catch (e) {
    bar?.stop();
    if (e instanceof BackfillError) {
      const r = e.result;
      io.err(
        `record stopped after ${r.pages} request(s)` +
          (r.last !== undefined ? `; saved ${r.saved} bars this run, ${formatTime(r.first!)} .. ${formatTime(r.last)}` : '; nothing saved this run') +
          '\n  run the same command again to resume after the last stored bar',
      );
    }
    throw e;
  }
}

/**
 * What the range still needs from the exchange (data/kline-holes.ts), its stored stretches marked
 * checked on the way: a journal recorded before the checked ranges existed is read once.
 */
function holesOf(journal: Journal, s: FillSetup): Holes {
  const { symbol, interval, from, to } = s;
  const holes = findHoles({
    from,
    to,
    interval,
    checked: journal.klineChecked.within(symbol, interval, from, to),
    lastStored: journal.klines.klineRange(symbol, interval)?.last,
    storedTimes: (a, b) => openTimes(journal, symbol, interval, a, b),
  });
  journal.transaction(() => {
    for (const [a, b] of holes.stored) journal.klineChecked.add(symbol, interval, a, b);
  });
  return holes;
}

function* openTimes(journal: Journal, symbol: string, interval: string, from: number, to: number): Generator<number> {
  for (const c of journalBars(journal, symbol, interval, from, to)) yield c.openTime;
}

/** The fetches before the resume, for the first line: the bars before the first stored one, the holes between stored ones never asked about. */
function plan(holes: Holes, stored: { first: number; last: number }): string {
  const steps: string[] = [];
  if (holes.spans.some((h) => h.end <= stored.first)) steps.push(`fetching the bars before ${formatTime(stored.first)}`);
  const inside = holes.spans.filter((h) => h.start > stored.first && h.end <= stored.last).length;
  if (inside > 0) steps.push(`asking for the bars of ${inside} hole(s) between stored ones`);
  return steps.length ? `${steps.join(', ')}, then ` : '';
}
