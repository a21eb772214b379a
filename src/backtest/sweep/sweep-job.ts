/**
 * What a sweep or walk-forward worker is given: a plain, structured-clone-safe description from
 * which it builds its own inputs (loads the strategy, opens the journal or generates the
 * synthetic series, parses the instrument), so workers share nothing but this message.
 */
import type { BacktestMetrics } from '../types.ts';

/** Where the bars come from. */
export type DataSource =
  | {
      kind: 'journal';
      /** Journal file (opened read-only in each worker). */
      path: string;
      /** Open-time range, ms: from inclusive, to exclusive (journal convention). */
      from?: number;
      to?: number;
      /** The interval stored in the journal when shorter than the job's: its bars are aggregated (journal-series.ts). */
      stored?: string;
      /** The aggregated bars carry the stored ones, and fills are played on those (run-backtest.ts `detailed`). */
      detail?: boolean;
      /** With `detail`, the interval of the bars carried when not `stored`'s: made from the stored ones (journal-series.ts `detail`). */
      detailInterval?: string;
    }
  | {
      kind: 'synthetic';
      seed: number;
      /** Bar count (one segment of `regime`); ignored when `segments` is given. */
      bars: number;
      /** A regime name of core/synthetic (default 'slowUp'). */
      regime?: string;
      segments?: { regime: string | { drift: number; volatility: number; meanReversion?: number; volumeFactor?: number }; bars: number }[];
      startPrice?: string;
      tick?: string;
      startTime?: number;
      intervalMs?: number;
    };

/**
 * One symbol of a job of several (SweepJob.symbols): its name, its exchangeInfo object (spec 2.2,
 * parsed in the worker) and, when its bars come from elsewhere than the job's `data` (a series
 * stored at another interval, a synthetic market of its own), their source.
 */
export interface SweepSymbol {
  symbol: string;
  instrument: unknown;
  data?: DataSource;
}

/** Everything a backtest needs except the params. */
export interface SweepJob {
  /** Strategy reference for loadStrategy: a name from strategies/ or a path. */
  strategy: string;
  /** Loader options (defaults: the project's strategies/ and the cwd). */
  strategiesDir?: string;
  cwd?: string;
  /** Params every grid point starts from. */
  baseParams?: Record<string, unknown>;
  /** The symbol traded; with `symbols`, their names joined by ',' (as BacktestRun.symbol). */
  symbol: string;
  interval: string;
  data: DataSource;
  /** The symbol's exchangeInfo object (spec 2.2), parsed with parseInstrument in the worker (with `symbols`: the first's, unused). */
  instrument: unknown;
  /**
   * Several symbols in one account (run-several.ts): each symbol's rules and bars. A job's window
   * (BarWindow) then counts periods, a period being the bars of every symbol that open at one
   * time (sweep-data.ts periodOpens). Absent, or of one symbol: the one-symbol job as before.
   */
  symbols?: SweepSymbol[];
  fees: { maker: string; taker: string };
  balances: Record<string, string>;
  fillModel?: Record<string, unknown>;
}

/** A bar window by position in the data source: skip `skip` bars, then take `take` (periods, in a job of several symbols). */
export interface BarWindow {
  skip: number;
  take: number;
  /**
   * Bars just before the window given to the strategy as history (runBacktest `history`), at most
   * `skip`: a walk-forward window warms up on the bars before it instead of its own.
   */
  history?: number;
}

/** One backtest to run. */
export interface BacktestJob extends SweepJob {
  params: Record<string, unknown>;
  window?: BarWindow;
  /**
   * Return the run's equity curve (JobSummary.equity) thinned to at most this many points: a
   * walk-forward's test runs ask, to chain them; absent, none is sent back, so a sweep's runs
   * cost what they did (no curve crosses from a worker for each of thousands of grid points).
   */
  curvePoints?: number;
}

/** What a finished job reports of its run (a sweep's entry holds it too, with its rank and values). */
export interface JobSummary {
  metrics: BacktestMetrics;
  barCount: number;
  from: number;
  to: number;
  denials: number;
  strategyFailures: number;
  /** The first strategy failure (`<handler> at <time>: <message>`), when the strategy was stopped. */
  firstFailure?: string;
  /** Lines the strategy logged (`ctx.log`), and the first (`<time>  <message>`) when there were any. */
  logs: number;
  firstLog?: string;
  /** The run's warnings about itself (run-notices.ts: a warmup it never got past), when any. */
  notices?: string[];
  /**
   * When the job asked (BacktestJob.curvePoints): [time ms, equity] from the start equity at
   * `from`, then the bars' at their close times, thinned keeping extremes (equity-thin.ts).
   */
  equity?: [number, number][];
}

export type JobOutcome =
  | ({ ok: true } & JobSummary)
  | { ok: false; error: string };

/** Runs one job; the default runs it through runBacktest (sweep-exec.ts); tests inject fakes. */
export type RunJob = (job: BacktestJob) => JobOutcome | Promise<JobOutcome>;
