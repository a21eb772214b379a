/**
 * The commands as `halyard --help` lists them: usage and one line each, apart from their code.
 * The CLI loads only the module of the command it runs (cli/index.ts): through tsx, the backtest's
 * modules take about half a second to load and the sandbox's almost a second, which every
 * command paid before. Each command module takes its usage and line from here.
 */
export interface CommandInfo {
  /** yargs' command string: the name and its positionals. */
  readonly command: string;
  readonly describe: string;
}

/** In the order `halyard --help` lists them. */
export const COMMANDS = {
  start: { command: 'start', describe: 'Run the main job: the bot, live on the embedded sandbox (SMA crossover and market maker on two symbols), until Ctrl-C or --duration' },
  run: { command: 'run', describe: 'Run the bot: strategies live on a venue (the embedded sandbox or URLs) from a bot config (--config bot.json), until SIGINT/SIGTERM or --duration' },
  status: { command: 'status', describe: "Show a running or stopped bot's status from its journal (--journal FILE): positions, open orders, PnL, last signals, stream health" },
  demo: { command: 'demo', describe: 'The backtest demo on the embedded sandbox (synthetic market -> journal -> backtest -> report)' },
  api: { command: 'api [endpoint] [params..]', describe: 'Call any endpoint by id with key=value parameters and print the JSON answer' },
  time: { command: 'time', describe: 'Show the server time and the local clock offset' },
  'exchange-info': { command: 'exchange-info', describe: 'Show symbols and their filters' },
  import: { command: 'import <file>', describe: 'Import a kline CSV file (plain, .csv.gz, or a .zip holding one CSV; 6 or 12 columns, ms or µs times) into the journal' },
  data: { command: 'data', describe: 'List what the journal holds: kline series, their ranges and missing bars, exchangeInfo snapshots' },
  record: { command: 'record', describe: 'Backfill klines from the exchange into the journal (resumable)' },
  backtest: { command: 'backtest', describe: "Backtest a strategy on the journal's klines: terminal summary, JSON and an HTML report" },
  check: { command: 'check', describe: "Check a strategy on the journal's klines: is its warm-up enough (runs with more history), and does it decide from its bars alone" },
  'compare-live': { command: 'compare-live', describe: "Replay a live run's strategies on the bars it recorded and show, trade by trade, where live and backtest differ and which fill-model rule explains each difference" },
  strategies: { command: 'strategies [strategy]', describe: 'List the strategies and their parameters (one, by name or path)' },
  'new-strategy': { command: 'new-strategy <name>', describe: 'Write a new strategy and its test from a template (sma, rsi-exits, grid, blank), and print how to test and backtest them' },
  test: { command: 'test [paths..]', describe: "Run a strategy's tests, here or kept anywhere (vitest, halyard/strategy mapped to this installation)" },
  sandbox: { command: 'sandbox', describe: 'Run the sandbox exchange on 127.0.0.1 (spec-complete local server)' },
  treasury: { command: 'treasury <action>', describe: 'Treasury: plan the moves that keep every account inside its bands (plan), carry a plan out (apply), list the moves made (history)' },
  merchant: { command: 'merchant <subject> [action]', describe: 'Merchant invoices (invoice create|list|cancel, merchant signature), the invoice callback receiver (receive --listen HOST:PORT --journal FILE) and what it journaled (history)' },
  'payment-request': { command: 'payment-request <action>', describe: 'Payment requests to a payer: create, list, cancel, remind' },
} as const satisfies Record<string, CommandInfo>;

export type CommandName = keyof typeof COMMANDS;

export function isCommandName(name: string): name is CommandName {
  return Object.prototype.hasOwnProperty.call(COMMANDS, name);
}
