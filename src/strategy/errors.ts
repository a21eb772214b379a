/**
 * Typed errors of the strategy layer. Only host-side mistakes are thrown at the host (a bad
 * definition, bad parameters, a module that will not load, a bar fed before it closed); a
 * strategy's own failures are never thrown at the host: the runner reports them (runner.ts).
 */
import { HalyardError } from '../exchange/errors/errors.ts';

/** defineStrategy() was given something unusable, or symbols()/warmup() of the params failed. */
export class StrategyDefinitionError extends HalyardError {
  constructor(
    readonly strategy: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('STRATEGY_DEFINITION', `strategy '${strategy}': ${message}`, options);
  }
}

/** Parameters failed the strategy's schema; `issues` lists every problem with its path. */
export class StrategyParamsError extends HalyardError {
  constructor(
    readonly strategy: string,
    readonly issues: readonly string[],
  ) {
    super('STRATEGY_PARAMS', `invalid parameters for strategy '${strategy}':\n${issues.map((i) => `  - ${i}`).join('\n')}`);
  }
}

export type StrategyLoadErrorCode = 'unknown-strategy' | 'not-found' | 'import-failed' | 'no-default-export' | 'not-a-strategy' | 'bad-reference';

/** A strategy module could not be found or loaded. */
export class StrategyLoadError extends HalyardError {
  constructor(
    readonly reason: StrategyLoadErrorCode,
    message: string,
    readonly file?: string,
    options?: { cause?: unknown },
  ) {
    super('STRATEGY_LOAD', message, options);
  }
}

/** Thrown into strategy code when it misuses the context (unknown symbol, ...); the runner reports it. */
export class StrategyContextError extends HalyardError {
  constructor(message: string) {
    super('STRATEGY_CONTEXT', message);
  }
}

/** The host fed the runner something it must not (a bar that has not closed yet). An engine bug. */
export class RunnerInputError extends HalyardError {
  constructor(message: string) {
    super('STRATEGY_RUNNER_INPUT', message);
  }
}
