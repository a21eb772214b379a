/**
 * V8 tiering for the CLI process (set by tune-jit.ts, main.ts's first import; the backtest
 * benchmark starts its children with the same flags, to measure what the CLI runs). A backtest is a short batch job: a year of bars runs in under a
 * second, and the first ~2,000 orders of a run go through the interpreter before V8 finds the
 * order path hot enough to optimise (about 300 functions; a fresh process's first tenth of a
 * year costs about five times a later tenth). Two settings shorten that warm-up:
 *
 * - `--interrupt-budget=16384` (V8's default 67584): a function is considered for optimisation
 *   after a quarter of the bytecode executed, so the order path reaches optimised code after a
 *   few hundred orders instead of a couple of thousand;
 * - `--max-inlined-bytecode-size-cumulative=300` (default 920): smaller optimised functions,
 *   which compile sooner on a machine with few cores (the compiler thread shares them with the
 *   garbage collector).
 *
 * Measured on the 2-core standard machine (BENCHMARKS.md): a fresh process's year of SMA
 * crossover about 7-9% faster end to end; a warm run (sweeps, walk-forward) unchanged. They are
 * tiering thresholds only: what code computes does not change. Set before the rest of the
 * program is evaluated, so every function of it is created under them; `HALYARD_JIT_TUNING=0`
 * leaves V8's defaults. The environment is the caller's to pass (the process entry reads it).
 */
import { setFlagsFromString } from 'node:v8';

export const JIT_FLAGS: readonly string[] = ['--interrupt-budget=16384', '--max-inlined-bytecode-size-cumulative=300'];

/** The flags for a child process's command line (`execArgv`): none when the tuning is off. */
export function jitExecArgv(env: Readonly<Record<string, string | undefined>>): string[] {
  return env.HALYARD_JIT_TUNING === '0' ? [] : [...JIT_FLAGS];
}

/** Set the flags in this process (what `jitExecArgv` would pass a child); false when the tuning is off. */
export function tuneJit(env: Readonly<Record<string, string | undefined>>): boolean {
  const flags = jitExecArgv(env);
  for (const flag of flags) setFlagsFromString(flag);
  return flags.length > 0;
}
