/**
 * The kernel a backtest runs its strategy in (one symbol or several): the order manager over the
 * simulated venue on the virtual clock, every hook feeding the run's recorder, the strategy's log
 * and plots when the caller keeps them, and the host's catch-up of the last price before intents
 * are checked.
 */
import type { OrderManager } from '../../core/orders/index.ts';
import { Kernel } from '../../engine/kernel.ts';
import type { VenuePort } from '../../ports/venue.ts';
import type { StrategyLogEntry, StrategyPlotEntry } from '../../strategy/types.ts';
import type { PlotRecorder } from '../record/plot-recorder.ts';
import type { Recorder } from '../record/recorder.ts';

export interface BacktestKernelParts {
  readonly orders: OrderManager;
  readonly venue: VenuePort;
  readonly clock: { now(): number };
  readonly rec: Recorder;
  readonly onLog: ((entry: StrategyLogEntry) => void) | undefined;
  readonly plots: PlotRecorder | undefined;
  /** Brings the order manager's last price up to date (the venue sees bars lazily). */
  readonly beforeSubmit: () => void;
}

export function backtestKernel(p: BacktestKernelParts): Kernel {
  const { rec, plots } = p;
  return new Kernel({
    orders: p.orders,
    venue: p.venue,
    clock: p.clock,
    onIntents: (s, intents, time, origin) => rec.intents(s, intents, time, origin),
    onDenial: (d) => rec.denial(d),
    onFill: (_s, f) => rec.fill(f),
    onFailure: (f) => rec.failure(f),
    onIssue: (i) => rec.issue(i),
    ...(p.onLog ? { onLog: p.onLog } : {}),
    ...(plots === undefined ? {} : { onPlot: (e: StrategyPlotEntry) => plots.add(e) }),
    beforeSubmit: p.beforeSubmit,
  });
}
