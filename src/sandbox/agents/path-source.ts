/**
 * The price path a market follows: the source's bars, each expanded into `steps` points
 * (bar-path.ts), timed on the run's own schedule. Bar i starts `i * barMs` after the run starts and
 * its point k plays `floor(k * barMs / steps)` into it, so the close prints inside the bar and a
 * 1m bar played at 60 s per bar lands in one 1m kline. Gaps in the source are not replayed as
 * silence: bars play back to back. Prices are ticks of the sandbox symbol (source prices are
 * rounded onto its grid); volumes are the bar's volume times `volumeScale`, split over the points.
 */
import { D, dec, type Dec } from '../../core/money/decimal.ts';
import type { Prng } from '../../core/synthetic/index.ts';
import { expandBar } from './bar-path.ts';
import type { MarketRules } from './market-rules.ts';
import type { BarSource } from './sources/index.ts';

export interface PathPoint {
  /** Bar number since the run started (counts on across loops). */
  readonly bar: number;
  /** 0 = the bar's open, steps - 1 = its close. */
  readonly step: number;
  /** When to play it, ms after the run's start. */
  readonly offsetMs: number;
  /** Price in ticks (MarketRules.units) and as text. */
  readonly units: number;
  readonly price: string;
  /** Base quantity to trade at this point. */
  readonly volume: Dec;
}

export interface PathOptions {
  readonly barMs: number;
  readonly steps: number;
  readonly rng: Prng;
  readonly rules: MarketRules;
  readonly volumeScale: number;
  /** `loop`: play the source again at its end; `hold`: end the path. */
  readonly onEnd: 'loop' | 'hold';
}

export function* pathPoints(source: BarSource, o: PathOptions): Generator<PathPoint, void, undefined> {
  const scale = new D(o.volumeScale);
  let bar = 0;
  for (;;) {
    const before = bar;
    for (const b of source.bars()) {
      const { rules } = o;
      const path = expandBar({ open: rules.units(b.open), high: rules.units(b.high), low: rules.units(b.low), close: rules.units(b.close) }, o.steps, o.rng);
      const volume = dec(b.volume, 'volume').times(scale);
      for (let k = 0; k < o.steps; k++) {
        const units = path.prices[k]!;
        yield {
          bar,
          step: k,
          offsetMs: bar * o.barMs + Math.floor((k * o.barMs) / o.steps),
          units,
          price: rules.price(units),
          volume: volume.times(path.weights[k]!),
        };
      }
      bar++;
    }
    if (bar === before || o.onEnd === 'hold') return;
  }
}
