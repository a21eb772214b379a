/**
 * Process entry: the only file that touches argv, the environment, signals and exit codes (with
 * app/tune-jit.ts, its first import, which reads HALYARD_JIT_TUNING before the rest is evaluated).
 *
 * Signals: the first SIGINT/SIGTERM aborts `signal`, and a long-running command (sandbox, start)
 * closes cleanly, an import rolls back and exits 128 + the signal's number (the abort reason's
 * `signal` names it); a second one ends the process at once (128 + the signal's number). Once the
 * command has finished, the handlers are removed, so a signal ends the process the usual way, and
 * nothing the command may have left open (a timer, a socket) keeps the process alive: it exits
 * with the command's code after EXIT_GRACE_MS at the latest.
 */
// First: V8's tiering settings apply to the functions created after them (jit-tuning.ts).
import './app/tune-jit.ts';
import { constants } from 'node:os';
import { runCli } from './cli/index.ts';

const EXIT_GRACE_MS = 1000;

const stop = new AbortController();
const onSignal = (sig: NodeJS.Signals) => {
  if (stop.signal.aborted) process.exit(128 + constants.signals[sig]);
  // The reason names the signal: a command it cuts short exits 128 + its number (import).
  stop.abort(Object.assign(new Error(`received ${sig}`), { signal: sig }));
};
const signals = ['SIGINT', 'SIGTERM'] as const;
for (const sig of signals) process.on(sig, onSignal);

// A reader that stops early (`halyard test | head`) closes the pipe: the output ends there, quietly,
// as a Unix tool's does, not with an EPIPE stack trace (vitest, run in this process, writes on).
// With the command's code once it has one; cut short before, with a Unix tool's code for it, 128 +
// SIGPIPE (141): a 0 would tell `set -o pipefail` that a run whose files were never written succeeded.
const onPipeError = (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(typeof process.exitCode === 'number' ? process.exitCode : 128 + constants.signals.SIGPIPE);
};
process.stdout.on('error', onPipeError);
process.stderr.on('error', onPipeError);

const code = await runCli(process.argv.slice(2), {
  env: process.env,
  signal: stop.signal,
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
});
process.exitCode = code;
for (const sig of signals) process.off(sig, onSignal);
setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
