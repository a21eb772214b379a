/**
 * Endless seeded synthetic bars (core/synthetic generateSeries) for when no data is given: one
 * cycle of regimes (range, trends, a crash ...) generated at a time, each cycle starting at the
 * previous close with its own seed derived from the market's, so the market never ends and the
 * same seed always tells the same story.
 */
import { generateSeries, type Segment, type Seed } from '../../../core/synthetic/index.ts';
import type { BarSource, SourceBar } from './types.ts';

/** About five and a half hours of 1-minute bars: range, rally, range, crash, recovery, slide. */
export const DEFAULT_CYCLE: readonly Segment[] = [
  { regime: 'flat', bars: 60 },
  { regime: 'slowUp', bars: 60 },
  { regime: 'flat', bars: 30 },
  { regime: 'crash', bars: 12 },
  { regime: 'flat', bars: 45 },
  { regime: 'sharpUp', bars: 20 },
  { regime: 'slowDown', bars: 60 },
  { regime: 'flat', bars: 45 },
];

export interface SyntheticSourceOptions {
  readonly seed: Seed;
  readonly startPrice: string;
  /** The symbol's tick and lot step as plain decimals (at most 12 decimals). */
  readonly tick: string;
  readonly volumeStep: string;
  readonly baseVolume: number;
  readonly segments?: readonly Segment[] | undefined;
  readonly intervalMs?: number | undefined;
  readonly volatilityScale?: number | undefined;
}

export function syntheticBarSource(options: SyntheticSourceOptions): BarSource {
  const intervalMs = options.intervalMs ?? 60_000;
  const segments = options.segments ?? DEFAULT_CYCLE;
  const cycle = (n: number, startPrice: string) =>
    generateSeries({
      segments,
      seed: `${String(options.seed)}#${n}`,
      startPrice,
      tick: options.tick,
      volumeStep: options.volumeStep,
      baseVolume: options.baseVolume,
      intervalMs,
      volatilityScale: options.volatilityScale ?? 1,
    });
  // Fail at open, not in the first bar, when an option is unusable.
  cycle(0, options.startPrice);
  return {
    label: 'synthetic',
    intervalMs,
    *bars(): Generator<SourceBar> {
      let price = options.startPrice;
      for (let n = 0; ; n++) {
        const series = cycle(n, price);
        for (let i = 0; i < series.length; i++) {
          const c = series.at(i)!;
          yield { openTime: c.openTime + n * series.length * intervalMs, ...c.exact };
          price = c.exact.close;
        }
      }
    },
    close: () => undefined,
  };
}
