/**
 * What `halyard start` prints after the bot's summary (issue 21 deliverable 5: "the command that
 * backtests the same strategies on the bars this run recorded"): per strategy of the bot config,
 * the `halyard backtest` line with its strategy, symbols, interval, params and capital (as the
 * backtest's starting balance), on the run's journal from the minute the run started to the last
 * minute that closed. The bars before that minute in the journal (the warm-up the run read through
 * REST) are the backtest's warm-up, as they were the live strategy's.
 */
import type { BotConfig } from '../../../bot/config.ts';
import type { BotSummary, StrategySummary } from '../../../bot/summary.ts';

const MINUTE = 60_000;

export function backtestCommands(config: BotConfig, summary: Pick<BotSummary, 'startedAt' | 'endedAt' | 'journal'> & { readonly strategies?: readonly Pick<StrategySummary, 'warmupMs'>[] }): string[] {
  const to = Math.floor(summary.endedAt / MINUTE) * MINUTE;
  return config.strategies.map((s, index) => {
    // From the run's start less the strategy's warm-up (its warm-up bars came by REST and are in the
    // journal): the backtest then decides its first bar where the live run decided its first.
    const from = Math.floor((summary.startedAt - (summary.strategies?.[index]?.warmupMs ?? 0)) / MINUTE) * MINUTE;
    const params = { ...s.params } as Record<string, unknown>;
    const symbols = s.symbols ?? (typeof params['symbol'] === 'string' ? [params['symbol']] : Array.isArray(params['symbols']) ? params['symbols'].map(String) : []);
    const interval = typeof params['interval'] === 'string' ? params['interval'] : '1m';
    delete params['symbol'];
    delete params['symbols'];
    delete params['interval'];
    const words = ['npx', 'halyard', 'backtest', '--strategy', s.strategy];
    if (symbols.length > 0) words.push('--symbol', symbols.join(','));
    words.push('--interval', interval, '--journal', summary.journal, '--from', minuteText(from));
    if (to > from) words.push('--to', minuteText(to));
    for (const [k, v] of Object.entries(params)) words.push('--param', `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`);
    for (const [asset, amount] of Object.entries(s.capital ?? {})) words.push('--balance', `${asset}=${amount}`);
    return words.map(shellWord).join(' ');
  });
}

/** `2026-01-05T12:34`: the backtest's UTC minute form. */
function minuteText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16);
}

/** A word as a POSIX shell reads it back: quoted when it holds anything but plain characters. */
function shellWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}
