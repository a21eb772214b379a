/** The `halyard` command line (yargs): one file per command under `commands/`. */
import { readFileSync } from 'node:fs';
import yargs, { type CommandModule } from 'yargs';
import { COMMANDS, isCommandName, type CommandName } from './commands/catalog.ts';
import { reportError } from './errors.ts';
import { EXIT, type CliIo } from './io.ts';
import { nearestByEdits } from '../core/text/nearest-name.ts';

/**
 * A command's module, loaded to run it (commands/catalog.ts says why only then). Every command is
 * registered with yargs, the one being run with its module, the others by their usage and line
 * alone: `--help` lists them all, a misspelt name gets its suggestion, and only one can match.
 */
async function loadCommand(name: CommandName, io: CliIo, setExit: (code: number) => void): Promise<CommandModule> {
  switch (name) {
    case 'start':
      return (await import('./commands/bot/start.ts')).startCommand(io) as CommandModule;
    case 'run':
      return (await import('./commands/bot/run.ts')).runCommand(io) as CommandModule;
    case 'status':
      return (await import('./commands/bot/status.ts')).statusCommand(io) as CommandModule;
    case 'demo':
      return (await import('./commands/demo.ts')).demoCommand(io) as CommandModule;
    case 'api':
      return (await import('./commands/api.ts')).apiCommand(io, setExit) as CommandModule;
    case 'time':
      return (await import('./commands/time.ts')).timeCommand(io) as CommandModule;
    case 'exchange-info':
      return (await import('./commands/exchange-info.ts')).exchangeInfoCommand(io) as CommandModule;
    case 'import':
      return (await import('./commands/data/import.ts')).importCommand(io, setExit) as CommandModule;
    case 'data':
      return (await import('./commands/data/data.ts')).dataCommand(io) as CommandModule;
    case 'record':
      return (await import('./commands/data/record.ts')).recordCommand(io) as CommandModule;
    case 'backtest':
      return (await import('./commands/backtest/backtest.ts')).backtestCommand(io) as CommandModule;
    case 'check':
      return (await import('./commands/backtest/check.ts')).checkCommand(io, setExit) as CommandModule;
    case 'compare-live':
      return (await import('./commands/backtest/live-compare.ts')).compareLiveCommand(io) as CommandModule;
    case 'strategies':
      return (await import('./commands/strategy/strategies.ts')).strategiesCommand(io) as CommandModule;
    case 'new-strategy':
      return (await import('./commands/strategy/new-strategy.ts')).newStrategyCommand(io) as CommandModule;
    case 'test':
      return (await import('./commands/strategy/test.ts')).testCommand(io, setExit) as CommandModule;
    case 'sandbox':
      return (await import('./commands/sandbox.ts')).sandboxCommand(io, io.signal ? { signal: io.signal } : {}) as CommandModule;
    case 'treasury':
      return (await import('./commands/money/treasury.ts')).treasuryCommand(io, setExit) as CommandModule;
    case 'merchant':
      return (await import('./commands/money/merchant.ts')).merchantCommand(io, setExit) as CommandModule;
    case 'payment-request':
      return (await import('./commands/money/payment-request.ts')).paymentRequestCommand(io) as CommandModule;
  }
}

/** A command registered by its usage and line only (listed by --help; it cannot be the one run: that one is loaded). */
function stub(key: string, info: { readonly command: string; readonly describe: string }): CommandModule {
  return {
    ...info,
    handler: () => {
      throw new Error(`internal: the '${key}' command was run without its module loaded`);
    },
  };
}

/** Global options that take a value: their value is not the command's name. */
const GLOBAL_VALUED = new Set(['--config', '--base-url', '--log-level']);

/** The command named on the line: the first argument that is neither an option nor a global option's value. */
export function commandNameOf(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') return undefined;
    if (!a.startsWith('-')) return a;
    if (GLOBAL_VALUED.has(a)) i++;
  }
  return undefined;
}

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const setExit = (code: number) => {
    exitCode = code;
  };
  let failure: unknown;
  const name = commandNameOf(argv);
  let running: CommandModule | undefined;
  try {
    running = name !== undefined && isCommandName(name) ? await loadCommand(name, io, setExit) : undefined;
  } catch (e) {
    // A command whose modules cannot load (a native addon missing, say) is reported like its failure.
    return reportError(io, e);
  }
  const parser = yargs([...argv])
    .scriptName('halyard')
    .usage('$0 <command> [options]')
    .option('config', { type: 'string', describe: 'JSON config file (see config/example.json)' })
    .option('base-url', { type: 'string', describe: 'exchange REST base URL (overrides config)' })
    .option('log-level', { type: 'string', choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], describe: "what the exchange client (api, time, exchange-info, record) and the sandbox command log to stderr (default: the config's log.level; sandbox: warn)" })
    .command(Object.entries(COMMANDS).map(([key, info]) => (key === name && running !== undefined ? running : stub(key, info))))
    // yargs calls middleware with the instance in the command's context as the second argument.
    .middleware(((argv: Record<string, unknown>, y: OptionsHolder) => refuseRepeatedOptions(argv, y)) as (argv: Record<string, unknown>) => void)
    .middleware(((argv: Record<string, unknown>, y: OptionsHolder) => refuseEmptyValues(argv, y, name !== undefined && isCommandName(name) ? positionalsOf(COMMANDS[name].command) : [])) as (argv: Record<string, unknown>) => void)
    .middleware(((parsed: Record<string, unknown>, y: OptionsHolder) => parsed['help'] === true || refuseUnknownOptions(argv, y)) as (argv: Record<string, unknown>) => void, true)
    .middleware(checkConfigFile)
    .demandCommand(1, 'name a command; `halyard --help` lists them')
    .strict()
    .recommendCommands()
    .exitProcess(false)
    .showHelpOnFail(false)
    .wrap(Math.min(120, process.stdout.columns || 100))
    .fail((msg, err) => {
      // Throw, not just record: yargs would otherwise still run the command after a strict-mode error.
      throw err ?? new UsageErrorLike(plainUsageMessage(unknownArgumentsOnce(msg, argv), name));
    })
    .help()
    .alias('help', 'h')
    .version('version', 'show the version of Halyard', packageVersion());

  try {
    const output = await new Promise<string>((resolve, reject) => {
      parser.parseAsync([...argv], {}, (err, _argv, text) => (err ? reject(err) : resolve(text))).catch(reject);
    });
    if (output) io.out(output);
  } catch (e) {
    failure ??= e;
  }
  if (failure !== undefined) {
    if (failure instanceof UsageErrorLike) {
      io.err(`error: ${failure.message}\n(see \`halyard --help\`)`);
      return EXIT.badInput;
    }
    return reportError(io, failure);
  }
  return exitCode;
}

/** package.json's version (`halyard --version`), read beside src/ or dist/ alike. */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

/** yargs' own argument errors (unknown command, missing argument). */
class UsageErrorLike extends Error {}

/**
 * An option that takes one value, given more than once, is refused by name (yargs would hand the
 * command an array where it expects a string); the repeatable ones (`--param`, `--balance`,
 * `--sweep`) are declared as arrays and pass.
 */
interface OptionsHolder {
  getOptions(): { array: string[]; string: string[]; key?: Record<string, unknown>; alias?: Record<string, string[]> };
}

/**
 * An option the command does not know is refused by name before yargs checks the required ones,
 * with the nearest known option when one is close: `backtest --intervl 1m` would otherwise say
 * only "Missing required argument: interval", hiding the typo. Runs before validation; other
 * unknown arguments (an extra positional) are left to yargs' strict mode.
 */
export function refuseUnknownOptions(tokens: readonly string[], y: OptionsHolder): void {
  const options = y.getOptions();
  const keys = Object.keys(options.key ?? {});
  const known = new Set<string>();
  for (const k of [...keys, ...Object.values(options.alias ?? {}).flat()]) {
    known.add(k);
    known.add(camel(k));
  }
  if (known.size === 0) return;
  const typed: string[] = [];
  for (const t of tokens) {
    if (t === '--') break;
    if (t.startsWith('--') && t.length > 2) typed.push(t.slice(2).replace(/=.*$/s, ''));
  }
  const unknown = [...new Set(typed.filter((n) => !known.has(n) && !(n.startsWith('no-') && known.has(n.slice(3)))))];
  if (unknown.length === 0) return;
  const listed = unknown.map((n) => {
    const near = nearestOption(n, keys);
    return near === undefined ? `--${n}` : `--${n} (did you mean --${near}?)`;
  });
  throw new UsageErrorLike(`Unknown argument${listed.length === 1 ? '' : 's'}: ${listed.join(', ')}`);
}

/**
 * The known option closest to a misspelt one (at most 2 edits, and fewer than half its letters),
 * else the one option it begins (`--out` for `--out-dir`, at least 3 letters), if any.
 */
function nearestOption(name: string, keys: readonly string[]): string | undefined {
  const near = nearestByEdits(name, keys, ['help', 'version']);
  if (near !== undefined || name.length < 3) return near;
  const started = keys.filter((k) => k !== 'help' && k !== 'version' && k.toLowerCase().startsWith(name.toLowerCase()));
  return started.length === 1 ? started[0] : undefined;
}

function refuseRepeatedOptions(argv: Record<string, unknown>, y: OptionsHolder): void {
  const arrays = new Set(y.getOptions().array);
  for (const [key, value] of Object.entries(argv)) {
    if (key === '_' || key === '$0' || key.includes('-') || !Array.isArray(value) || arrays.has(key)) continue;
    const flag = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    // yargs lists an array option under the name it was declared with (`exchange-info`), argv has its camelCase too.
    if (arrays.has(flag)) continue;
    throw new UsageErrorLike(`--${flag} was given ${value.length} times (${value.map(String).join(', ')}): give it once`);
  }
}

/**
 * `--config FILE` is read and validated before any command runs, whether or not the command
 * reads it (strategies, import --dry-run): a bad or missing file is the same usage error (exit 2,
 * naming the file and each field) everywhere. Loaded only when given.
 */
async function checkConfigFile(argv: Record<string, unknown>): Promise<void> {
  if (typeof argv['config'] !== 'string' || argv['help'] === true) return;
  // `run` takes the bot's own config file (src/bot/config.ts) and checks it itself.
  if ((argv['_'] as unknown[] | undefined)?.[0] === 'run') return;
  // So does `treasury`: a treasury policy file or a bot config (src/treasury/policy/parse.ts).
  if ((argv['_'] as unknown[] | undefined)?.[0] === 'treasury') return;
  const { loadConfig } = await import('../config/load.ts');
  loadConfig(argv['config']);
}

/** The positional arguments of a yargs command string (`import <file>` -> file). */
export function positionalsOf(command: string): string[] {
  return [...command.matchAll(/[<[]([\w-]+)(?:\.\.)?[>\]]/g)].map((m) => m[1] as string);
}

/**
 * An option that takes text, given empty (`--symbol ""`), is refused by name: no option's empty
 * value means anything, and some would otherwise read as "not given" (exchange-info --symbol ""
 * listed every symbol). Positional arguments are left to their command, which says what it needs.
 */
function refuseEmptyValues(argv: Record<string, unknown>, y: OptionsHolder, positionals: readonly string[]): void {
  for (const key of new Set(y.getOptions().string)) {
    if (positionals.includes(key)) continue;
    const value = argv[key];
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && v.trim() === '')) throw new UsageErrorLike(`--${key} is empty: give it a value`);
  }
}

const camel = (name: string): string => name.replace(/-+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * yargs' messages about the command line itself, said as what is wrong with it: a misspelt command
 * got only "Did you mean backtest?" (and one nothing resembles "Unknown argument: zzz"), a missing
 * positional "Not enough non-option arguments: got 0, need at least 1".
 */
export function plainUsageMessage(message: string, name: string | undefined): string {
  if (name !== undefined && !isCommandName(name)) {
    const suggested = /^Did you mean (.+)\?$/s.exec(message);
    if (suggested || message === `Unknown argument: ${name}` || message.startsWith(`Unknown arguments: ${name}, `)) {
      return `unknown command '${name}'${suggested ? ` (did you mean ${suggested[1] as string}?)` : ''}`;
    }
  }
  if (name !== undefined && isCommandName(name) && /^Not enough non-option arguments/.test(message)) {
    const usage = COMMANDS[name].command;
    const required = [...usage.matchAll(/<([\w-]+)>/g)].map((m) => `<${m[1] as string}>`);
    if (required.length > 0) return `missing ${required.join(' ')}: halyard ${usage}`;
  }
  return message;
}

/**
 * yargs lists an unknown `--bogus-flag` twice, as typed and camel-cased ("Unknown arguments:
 * bogus-flag, bogusFlag"): each is listed once, as typed (with its dashes when it was an option).
 */
export function unknownArgumentsOnce(message: string, argv: readonly string[]): string {
  const m = /^Unknown arguments?: (.*)$/s.exec(message);
  if (!m) return message;
  const names = (m[1] as string).split(', ');
  const typed = new Set(argv.filter((a) => a.startsWith('-')).map((a) => a.replace(/^-+/, '').replace(/=.*$/s, '')));
  const kept = names.filter((n) => typed.has(n) || !names.some((other) => other !== n && other.includes('-') && camel(other) === n));
  const shown = [...new Set(kept)].map((n) => (typed.has(n) ? `${n.length === 1 ? '-' : '--'}${n}` : n));
  return `Unknown argument${shown.length === 1 ? '' : 's'}: ${shown.join(', ')}`;
}

