/**
 * `halyard compare-live [--journal FILE] [--run ID] [--out DIR] [--json]`: live against backtest
 * (issue 21 deliverable 6). The live run's strategies (the last live or sandbox run by default),
 * each replayed through the backtester with the same definition and params on the bars the run
 * recorded (backtest/live-compare/), and the two sides' trades shown trade by trade where they
 * differ (a trade missing on either side, fill time, fill price, quantity, fees), each difference
 * with the fill-model rule that explains it or UNEXPLAINED and why: in the terminal, and as an
 * HTML report and a JSON document under --out.
 *
 * A strategy is loaded by the reference the run's bot config gave (`strategies[i].strategy`, the
 * instance named `name`), else by the run's name for it; `--strategy-file NAME=PATH` overrides.
 * The replay runs under the run's name for it, so its client order ids are the live ones. Its
 * starting balances: --balance, else the strategy's capital in the run's config, else the run's
 * first balance snapshot (quote assets; base at 0). Fees: --fee, else the rates the live fills
 * paid. Rules: --exchange-info, else the journal's snapshot, else the sandbox config's.
 *
 * The journal is read only. A missing journal, a journal without the run, a strategy that cannot
 * be loaded, no bars recorded for the run's span: bad input (exit 2) saying which and what to do.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Argv } from 'yargs';
import { parseBalanceArgs } from '../../../backtest/sources/cli-input.ts';
import { compareRun, type LoadedRunStrategy } from '../../../backtest/live-compare/compare-run.ts';
import { formatComparison } from '../../../backtest/live-compare/format.ts';
import { ReplayInputError } from '../../../backtest/live-compare/replay-input.ts';
import { writeComparisonReport } from '../../../backtest/live-compare/report.ts';
import type { LiveComparison } from '../../../backtest/live-compare/types.ts';
import { loadConfig } from '../../../config/load.ts';
import { writeJsonFile } from '../../../data/json-file.ts';
import { HalyardError } from '../../../exchange/errors/errors.ts';
import { makeDirs } from '../../../fs/make-dirs.ts';
import { resolveJournalPath } from '../../../journal/journal-path.ts';
import type { LiveRunRecord, RunStrategy } from '../../../journal/runs/live-run-store.ts';
import { isStrategyDefinition, type AnyStrategyDefinition } from '../../../strategy/define.ts';
import { loadStrategy } from '../../../strategy/loading/loader.ts';
import { UsageError } from '../../errors.ts';
import { printJson, type CliIo } from '../../io.ts';
import { JOURNAL_OPTION, openUserJournal } from '../../journal-file.ts';
import { checkJournalPath, checkOutputDir, ioStep, journalSource } from '../../paths.ts';
import type { GlobalArgs } from '../../with-client.ts';
import { COMMANDS } from '../catalog.ts';
import { BALANCE_OPTION, EXCHANGE_INFO_OPTION, feeArg, FEE_OPTION, fillModelArgs, LIMIT_FILL_OPTION, SLIPPAGE_BPS_OPTION, symbolRules, VOLUME_SHARE_OPTION } from './run-options.ts';

export interface CompareLiveArgs extends GlobalArgs {
  journal?: string;
  run?: string;
  out?: string;
  json?: boolean;
  strategyFile?: string[];
  fee?: string;
  balance?: string[];
  exchangeInfo?: string[];
  slippageBps?: string;
  limitFill?: string;
  volumeShare?: string;
}

export function compareLiveCommand(io: CliIo) {
  return {
    ...COMMANDS['compare-live'],
    builder: (y: Argv<GlobalArgs>) =>
      y
        .option('journal', JOURNAL_OPTION)
        .option('run', { type: 'string', describe: 'the live run to compare (default: the last one started)' })
        .option('out', { type: 'string', describe: 'folder for the HTML report and the JSON (default backtest/out)' })
        .option('json', { type: 'boolean', describe: 'print the comparison as JSON instead of text' })
        .option('strategy-file', { type: 'string', array: true, describe: "NAME=PATH: load the run's strategy NAME from this file (repeatable; default: the run's config, else NAME from strategies/)" })
        .option('fee', { ...FEE_OPTION, describe: 'maker and taker fee rate of the replay (default: the rates the live fills paid)' })
        .option('balance', { ...BALANCE_OPTION, describe: "the replay's starting balance ASSET=AMOUNT (repeatable; default: the strategy's capital, else the run's first balance snapshot)" })
        .option('exchange-info', EXCHANGE_INFO_OPTION)
        .option('slippage-bps', SLIPPAGE_BPS_OPTION)
        .option('limit-fill', LIMIT_FILL_OPTION)
        .option('volume-share', VOLUME_SHARE_OPTION),
    handler: async (args: CompareLiveArgs) => {
      await runCompareLive(io, args);
    },
  };
}

export interface CompareLiveResult {
  readonly comparison: LiveComparison;
  readonly report: string;
  readonly json: string;
}

export async function runCompareLive(io: CliIo, args: CompareLiveArgs): Promise<CompareLiveResult> {
  const config = loadConfig(args.config as string | undefined);
  const file = resolveJournalPath(args.journal, io.env, config.journal.path);
  checkJournalPath(file, journalSource(args.journal, io.env, config.journal.path));
  if (!existsSync(file)) throw new UsageError(`no journal at ${file}: a live run writes its journal where its bot config says (\`halyard run --config bot.json\`); name it with --journal`);
  const outDir = args.out ?? 'backtest/out';
  checkOutputDir(outDir, '--out');
  const fee = feeArg(args.fee);
  const fillModel = fillModelArgs(args);
  const balances = args.balance === undefined ? undefined : parseBalances(args.balance);
  const files = strategyFiles(args.strategyFile ?? []);
  const journal = openUserJournal(file, { readonly: true });
  let comparison: LiveComparison;
  try {
    comparison = await compareRun({
      journal,
      runId: args.run,
      load: (s, run) => loadRunStrategy(s, run, files),
      rules: (symbol, at) => {
        const r = symbolRules(journal, config, symbol, at, args.exchangeInfo);
        return { instrument: r.instrument, fees: r.fees };
      },
      fee,
      balances,
      fillModel,
    });
  } catch (e) {
    if (e instanceof ReplayInputError || e instanceof HalyardError || e instanceof RangeError) throw new UsageError(e.message);
    throw e;
  } finally {
    journal.close();
  }
  const base = `live-compare-${comparison.runId.replace(/[^A-Za-z0-9._+-]+/g, '-')}`;
  const report = path.join(outDir, `${base}.html`);
  const json = path.join(outDir, `${base}.json`);
  await ioStep('create the folder', outDir, () => makeDirs(outDir));
  await ioStep('write the HTML report', report, () => writeComparisonReport(report, comparison));
  await ioStep('write the JSON file', json, () => writeJsonFile(json, comparison));
  if (args.json === true) printJson(io, comparison);
  else io.out([...formatComparison(comparison), '', `report  ${report}`, `json    ${json}`].join('\n'));
  return { comparison, report, json };
}

function parseBalances(pairs: readonly string[]): Record<string, string> {
  try {
    return parseBalanceArgs(pairs);
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

/** --strategy-file NAME=PATH pairs, by name; a pair without both is refused. */
function strategyFiles(pairs: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, Math.max(0, at)).trim();
    const ref = pair.slice(at + 1).trim();
    if (at < 1 || name === '' || ref === '') throw new UsageError(`--strategy-file ${JSON.stringify(pair)}: write it as NAME=PATH, e.g. --strategy-file sma-crossover=./strategies/sma-crossover.ts`);
    out.set(name, ref);
  }
  return out;
}

type ConfigStrategy = { strategy?: unknown; name?: unknown; capital?: unknown };

/** The run's config entries for its strategies (a bot config's `strategies`), as far as they read. */
function configStrategies(run: LiveRunRecord): ConfigStrategy[] {
  const list = (run.config as { strategies?: unknown } | null)?.strategies;
  return Array.isArray(list) ? (list.filter((x) => x !== null && typeof x === 'object') as ConfigStrategy[]) : [];
}

/**
 * The run's strategy loaded: --strategy-file, else the config entry of that instance name (or the
 * one without a name whose strategy defines it), else the name itself; renamed to the run's name
 * for it, as the bot hosts it (bot/strategies.ts), so the replay's client order ids are the live ones.
 */
async function loadRunStrategy(s: RunStrategy, run: LiveRunRecord, files: ReadonlyMap<string, string>): Promise<LoadedRunStrategy> {
  const entries = configStrategies(run);
  const named = entries.find((c) => c.name === s.name);
  const refs = [files.get(s.name), typeof named?.strategy === 'string' ? named.strategy : undefined].filter((r): r is string => r !== undefined);
  let entry = named;
  let definition: AnyStrategyDefinition | undefined;
  const tried: string[] = [];
  for (const ref of refs.length > 0 ? refs : [...entries.filter((c) => c.name === undefined && typeof c.strategy === 'string').map((c) => c.strategy as string), s.name]) {
    try {
      const loaded = (await loadStrategy(ref)).definition;
      if (refs.length === 0 && loaded.name !== s.name) continue;
      definition = loaded;
      entry ??= entries.find((c) => c.strategy === ref);
      break;
    } catch (e) {
      tried.push(`${ref}: ${e instanceof Error ? e.message : String(e)}`);
      if (refs.length > 0) break;
    }
  }
  if (definition === undefined) {
    throw new UsageError(`run ${run.id}'s strategy '${s.name}' cannot be loaded (${tried.join('; ') || 'no strategy of its config defines it'}): give its file with --strategy-file ${s.name}=PATH`);
  }
  const capital = entry?.capital !== null && typeof entry?.capital === 'object' ? (entry.capital as Record<string, string>) : undefined;
  return { definition: renamed(definition, s.name), ...(capital === undefined ? {} : { capital }) };
}

function renamed(d: AnyStrategyDefinition, name: string): AnyStrategyDefinition {
  if (d.name === name) return d;
  const copy = Object.freeze({ ...d, name });
  if (!isStrategyDefinition(copy)) throw new Error(`internal: the renamed strategy '${name}' lost its brand`);
  return copy;
}
