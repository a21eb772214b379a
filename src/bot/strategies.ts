/**
 * The bot config's strategies made ready to host (issue 21 deliverable 3, acceptance "Bad input"):
 * each one loaded by name or path (strategy/loading/loader.ts), its params checked by its own schema, the
 * config's `symbols` standing in for a `symbol` (or `symbols`) parameter as `halyard backtest
 * --symbol` does, the symbols it then trades checked against the config's, and its instance name
 * (the config's `name`, else the strategy's own) unique in the bot. Nothing is started here; every
 * problem of every strategy comes back at once, each with its path in the config (ConfigError).
 */
import { ConfigError } from '../config/errors.ts';
import { isStrategyDefinition, resolveSetup, type AnyStrategyDefinition, type StrategySetup } from '../strategy/define.ts';
import { StrategyParamsError } from '../strategy/errors.ts';
import { loadStrategy, type LoadOptions } from '../strategy/loading/loader.ts';
import { parseParams } from '../strategy/params.ts';
import type { BotConfig } from './config.ts';

export interface BotStrategy {
  /** The instance's name: the kernel's, the journal's and the client order ids'. */
  readonly name: string;
  readonly definition: AnyStrategyDefinition;
  /** Absolute path of the module. */
  readonly file: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly setup: StrategySetup;
  /** What it may spend per asset, when the config gives it a sub-ledger. */
  readonly capital?: Readonly<Record<string, string>> | undefined;
}

const shapeKeys = (d: AnyStrategyDefinition): string[] => Object.keys((d.params as unknown as { shape?: Record<string, unknown> }).shape ?? {});

/** Load and check every strategy of the config; a ConfigError lists every problem (source: the config's). */
export async function resolveBotStrategies(config: BotConfig, source: string, options: LoadOptions = {}): Promise<BotStrategy[]> {
  const issues: string[] = [];
  const out: BotStrategy[] = [];
  const names = new Map<string, number>();
  for (const [i, s] of config.strategies.entries()) {
    const at = `strategies.${i}`;
    let definition: AnyStrategyDefinition;
    let file: string;
    try {
      const loaded = await loadStrategy(s.strategy, options);
      definition = loaded.definition;
      file = loaded.file;
    } catch (e) {
      issues.push(`${at}.strategy: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    const raw: Record<string, unknown> = { ...s.params };
    const keys = shapeKeys(definition);
    if (s.symbols !== undefined) {
      if (keys.includes('symbol') && raw['symbol'] === undefined && s.symbols.length === 1) raw['symbol'] = s.symbols[0];
      if (keys.includes('symbols') && raw['symbols'] === undefined) raw['symbols'] = [...s.symbols];
    }
    let params: Readonly<Record<string, unknown>>;
    try {
      params = parseParams(definition.name, definition.params, raw) as Readonly<Record<string, unknown>>;
    } catch (e) {
      if (e instanceof StrategyParamsError) issues.push(...e.issues.map((x) => `${at}.params: ${x}`));
      else issues.push(`${at}.params: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    let setup: StrategySetup;
    try {
      setup = resolveSetup(definition, params as never);
    } catch (e) {
      issues.push(`${at}: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    if (s.symbols !== undefined) {
      const missing = s.symbols.filter((x) => !setup.symbols.includes(x));
      const extra = setup.symbols.filter((x) => !s.symbols?.includes(x));
      if (missing.length > 0 || extra.length > 0) {
        issues.push(`${at}.symbols: strategy '${definition.name}' trades ${setup.symbols.join(', ')} with these params, not ${s.symbols.join(', ')} (set its symbol parameter, or list the symbols it trades)`);
        continue;
      }
    }
    const name = s.name ?? definition.name;
    const first = names.get(name);
    if (first !== undefined) {
      issues.push(`${at}.name: '${name}' is already the name of strategies.${first}; give each instance of a strategy its own "name"`);
      continue;
    }
    names.set(name, i);
    out.push({ name, definition: named(definition, name), file, params, setup, capital: s.capital });
  }
  if (issues.length > 0) throw new ConfigError(source, issues);
  return out;
}

/** The definition under the instance's name (the kernel hosts strategies by name; the brand is kept). */
function named(d: AnyStrategyDefinition, name: string): AnyStrategyDefinition {
  if (d.name === name) return d;
  const copy = Object.freeze({ ...d, name });
  if (!isStrategyDefinition(copy)) throw new Error(`internal: the renamed strategy '${name}' lost its brand`);
  return copy;
}
