/**
 * Process entry: the only file that touches argv, the environment, signals and exit codes (with
 * app/tune-jit.ts, its first import, which reads HALYARD_JIT_TUNING before the rest is evaluated).
 */
// First: V8's tiering settings apply to the functions created after them (jit-tuning.ts).
import './app/tune-jit.ts';
import { runCli } from './cli/index.ts';

const stop = new AbortController();
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => stop.abort(new Error(`received ${sig}`)));
}

const code = await runCli(process.argv.slice(2), {
  env: process.env,
  signal: stop.signal,
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
});
process.exitCode = code;
