/** `npm run bench`: runs every benchmark and prints its figures next to same-run baselines. */
import { machine } from './harness.ts';
import { run as clientOverhead } from './client-overhead.bench.ts';
import { run as backtest } from './backtest.bench.ts';
import { run as backtestCommand } from './backtest-command.bench.ts';
import { run as journal } from './journal.bench.ts';
import { run as matching } from './matching.bench.ts';
import { run as sandboxHttp } from './sandbox-http.bench.ts';
import { run as losslessParse } from './lossless-parse.bench.ts';
import { run as streamLatency } from './stream-latency.bench.ts';
import { run as botLive } from './bot-live.bench.ts';
import { run as startup } from './startup.bench.ts';

const suites: [string, () => Promise<string[]>][] = [
  ['client-overhead', clientOverhead],
  ['matching', matching],
  ['journal', journal],
  ['backtest', backtest],
  ['backtest-command', backtestCommand],
  ['sandbox-http', sandboxHttp],
  ['lossless-parse', losslessParse],
  ['stream-latency', streamLatency],
  ['bot-live', botLive],
  ['startup', startup],
];
const only = process.argv[2];

console.log(`machine: ${machine()}`);
for (const [name, run] of suites) {
  if (only && only !== name) continue;
  console.log('');
  for (const line of await run()) console.log(line);
}
