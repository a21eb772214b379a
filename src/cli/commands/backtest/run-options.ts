/**
 * The run options that change what orders a strategy places over journal bars, shared by
 * `halyard backtest` and `halyard check` (declared, read and defaulted here once, so that a check
 * runs the strategy as the user's backtest does): --fee, --balance ASSET=AMOUNT, --exchange-info
 * FILE, --detail INTERVAL, --slippage-bps, --limit-fill, --volume-share. One symbol or several in
 * one account: a list of one is a single run, and the messages say which (as they always have).
 */
import type { Argv } from 'yargs';
import type { loadConfig } from '../../../config/load.ts';
import { parseInstruments } from '../../../core/market/index.ts';
import type { Instrument } from '../../../core/market/index.ts';
import { isPlainNumberText, parseBalanceArgs } from '../../../backtest/sources/cli-input.ts';
import { resolveFillModel } from '../../../backtest/run/fill-model.ts';
import type { FillModel } from '../../../backtest/run/fill-model.ts';
import { instrumentAt } from '../../../backtest/sources/sources.ts';
import { ExchangeInfoFileError, readExchangeInfoFile } from '../../../data/exchange-info-file.ts';
import type { ExchangeInfoFromFile } from '../../../data/exchange-info-file.ts';
import type { Journal } from '../../../journal/journal.ts';
import { exchangeInfoFromConfig } from '../../../sandbox/config/exchange-info.ts';
import { INTERVALS } from '../../../strategy/types.ts';
import { UsageError } from '../../errors.ts';
import { numberFlag, numberOption } from '../../options.ts';
import { usage } from './backtest.ts';

export const FEE_OPTION = { type: 'string', describe: 'maker and taker fee rate, e.g. 0.001 (default: the sandbox config symbol\'s, else 0.001)' } as const;
export const BALANCE_OPTION = { type: 'string', array: true, describe: 'starting balance ASSET=AMOUNT of the symbol\'s base or quote asset (repeatable; default 10000 of the quote asset)' } as const;
export const EXCHANGE_INFO_OPTION = { type: 'string', array: true, describe: 'the symbol\'s rules from this file: an exchangeInfo response or one of its symbol objects (repeatable: with several symbols, each file may hold some of them; default: the journal\'s snapshot, else the sandbox config\'s symbol)' } as const;
export const SLIPPAGE_BPS_OPTION = numberFlag('adverse move of MARKET and triggered stop-market fills, basis points (default 0)');
export const LIMIT_FILL_OPTION = { type: 'string', choices: ['through', 'touch'], describe: 'LIMIT orders fill when the price trades through them (default) or touches them' } as const;
export const VOLUME_SHARE_OPTION = numberFlag('cap all fills of a bar, taker fills included, at this share of its volume, (0, 1]');
export const DETAIL_OPTION = { type: 'string', choices: INTERVALS, describe: 'play fills on these shorter bars (e.g. 1m; made from shorter stored ones when the journal has none) while the strategy sees --interval\'s, made from them' } as const;

/** Declares the run options on a command's yargs (backtest, check): one list, in one order. */
export function runOptions<T>(y: Argv<T>) {
  return y
    .option('fee', FEE_OPTION)
    .option('balance', BALANCE_OPTION)
    .option('exchange-info', EXCHANGE_INFO_OPTION)
    .option('slippage-bps', SLIPPAGE_BPS_OPTION)
    .option('limit-fill', LIMIT_FILL_OPTION)
    .option('volume-share', VOLUME_SHARE_OPTION)
    .option('detail', DETAIL_OPTION);
}

/** The run options as yargs hands them over (numbers as typed: cli/options.ts reads them). */
export interface RunOptionArgs {
  fee?: string;
  balance?: string[];
  /** --exchange-info files, in the order given (the first that lists a symbol gives its rules). */
  exchangeInfo?: string[];
  detail?: string;
  slippageBps?: string;
  limitFill?: string;
  volumeShare?: string;
}

export type Fees = { maker: string; taker: string };

/** --slippage-bps, --limit-fill and --volume-share as the run's fill model, checked. */
export function fillModelArgs(args: Pick<RunOptionArgs, 'slippageBps' | 'limitFill' | 'volumeShare'>): FillModel {
  const slippageBps = numberOption('--slippage-bps', args.slippageBps, 'a number in [0, 10000)', (n) => n >= 0 && n < 10_000);
  const volumeShare = numberOption('--volume-share', args.volumeShare, 'a number in (0, 1]', (n) => n > 0 && n <= 1);
  const fillModel: FillModel = {
    ...(slippageBps === undefined ? {} : { slippageBps }),
    ...(args.limitFill === undefined ? {} : { limitFill: args.limitFill as 'through' | 'touch' }),
    ...(volumeShare === undefined ? {} : { volumeShare }),
  };
  usage(() => resolveFillModel(fillModel));
  return fillModel;
}

/** --fee checked: a plain decimal rate in [0, 1) (exponents and a sign are refused: a typo of the rate would go unseen). */
export function feeArg(fee: string | undefined): string | undefined {
  if (fee !== undefined && !(isPlainNumberText(fee) && !fee.startsWith('+') && Number(fee) >= 0 && Number(fee) < 1)) throw new UsageError(`--fee '${fee}' is not a rate such as 0.001 (a plain decimal in [0, 1))`);
  return fee;
}

/** A symbol's rules, where they came from, its exchangeInfo object (as a sweep's workers parse it) and its configured fees. */
export interface SymbolRules {
  readonly instrument: Instrument;
  readonly source: 'file' | 'journal' | 'fallback';
  readonly raw: unknown;
  readonly fees: Fees | undefined;
  /** The --exchange-info file they came from (source 'file'). */
  readonly file?: string;
}

/** The symbol's rules from --exchange-info, else the journal's snapshot in force at `at`, else the sandbox config's symbol. */
export function symbolRules(journal: Journal, config: Pick<ReturnType<typeof loadConfig>, 'sandbox'>, symbol: string, at: number, exchangeInfo: readonly string[] | undefined): SymbolRules {
  const configured = config.sandbox.symbols.find((s) => s.symbol === symbol);
  const configuredInfo = configured ? exchangeInfoFromConfig(config.sandbox, 0, [configured]) : undefined;
  const fallback = configuredInfo ? parseInstruments(configuredInfo).get(symbol) : undefined;
  const fromFile = exchangeInfo === undefined || exchangeInfo.length === 0 ? undefined : rulesFile(exchangeInfo, symbol);
  if (fromFile !== undefined) return { instrument: fromFile.instrument, source: 'file', raw: fromFile.raw, fees: configured?.fees, file: fromFile.file };
  const choice = usage(() => instrumentAt(journal, symbol, at, fallback));
  return { instrument: choice.instrument, source: choice.source, raw: choice.raw ?? configuredInfo?.symbols[0], fees: configured?.fees };
}

/**
 * The symbol's rules from the first of the exchangeInfo files (`--exchange-info`, repeatable) that
 * lists it; a bad file, or none listing it, is a usage error (each file's symbols named).
 */
export function rulesFile(files: readonly string[], symbol: string): ExchangeInfoFromFile {
  const unlisted: string[] = [];
  for (const file of files) {
    try {
      return readExchangeInfoFile(file, symbol);
    } catch (e) {
      if (!(e instanceof ExchangeInfoFileError)) throw e;
      if (!e.notListed) throw new UsageError(e.message);
      unlisted.push(e.message);
    }
  }
  throw new UsageError(unlisted.length === 1 ? (unlisted[0] as string) : `no --exchange-info file has rules for ${symbol}: ${unlisted.join('; ')}`);
}

/**
 * --fee for every symbol, else the config's fees when the symbols configured agree, else 0.1%.
 * A run takes one rate, so symbols configured with different fees (or some without) need --fee.
 */
export function runFees(fee: string | undefined, legs: readonly { readonly symbol: string; readonly fees: Fees | undefined }[]): Fees {
  if (fee !== undefined) return { maker: fee, taker: fee };
  const configured = legs.filter((s) => s.fees !== undefined);
  const first = configured[0]?.fees;
  if (first === undefined) return { maker: '0.001', taker: '0.001' };
  const differ = configured.some((s) => s.fees?.maker !== first.maker || s.fees?.taker !== first.taker) || configured.length < legs.length;
  if (differ) throw new UsageError(`the sandbox config gives ${legs.map((s) => `${s.symbol} ${s.fees === undefined ? 'no fees' : `maker ${s.fees.maker}, taker ${s.fees.taker}`}`).join('; ')}: a run of several symbols takes one rate, give it with --fee`);
  return first;
}

/**
 * --balance of the assets the symbols trade (their bases and the one quote they share), else 10000
 * of the quote. An asset they do not trade (a typo such as USTD) would replace the default
 * balance and leave nothing to trade with, so it is refused, naming the ones they do.
 */
export function runBalances(balance: readonly string[] | undefined, legs: readonly { readonly symbol: string; readonly instrument: Instrument }[]): Record<string, string> {
  const balances = usage(() => parseBalanceArgs(balance ?? []));
  const one = legs[0] as { symbol: string; instrument: Instrument };
  const quote = one.instrument.quoteAsset;
  const traded = [...legs.map((l) => l.instrument.baseAsset), quote];
  const stray = Object.keys(balances).find((asset) => !traded.includes(asset));
  if (stray !== undefined && legs.length === 1) throw new UsageError(`--balance ${stray}: ${one.symbol} trades ${one.instrument.baseAsset} against ${quote}; give a balance of ${one.instrument.baseAsset} or ${quote}`);
  if (stray !== undefined) throw new UsageError(`--balance ${stray}: ${legs.map((l) => l.symbol).join(', ')} trade ${traded.slice(0, -1).join(', ')} against ${quote}; give a balance of one of ${traded.join(', ')}`);
  if (Object.keys(balances).length === 0) balances[quote] = '10000';
  return balances;
}
