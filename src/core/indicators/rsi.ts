/**
 * Relative strength index, Wilder's smoothing: the first averages of gains and losses are the
 * simple means of the first `period` changes (so the first output is at input period + 1), then
 * avg = (avg * (period - 1) + change) / period. RSI = 100 - 100 / (1 + avgGain / avgLoss); with no
 * losses it is 100, and with neither gains nor losses (a flat line) 50. Pure.
 */
import { BaseIndicator, checkPeriod, runSeries } from './indicator.ts';

export class Rsi extends BaseIndicator {
  private prev: number | undefined;
  private changes = 0;
  private avgGain = 0;
  private avgLoss = 0;

  constructor(readonly period: number) {
    super();
    checkPeriod('rsi', period);
  }

  update(input: number): number | undefined {
    const prev = this.prev;
    this.prev = input;
    if (prev === undefined) return undefined;
    const change = input - prev;
    const gain = change > 0 ? change : 0;
    const loss = change < 0 ? -change : 0;
    const n = this.period;
    this.changes++;
    if (this.changes < n) {
      this.avgGain += gain;
      this.avgLoss += loss;
      return undefined;
    }
    if (this.changes === n) {
      this.avgGain = (this.avgGain + gain) / n;
      this.avgLoss = (this.avgLoss + loss) / n;
    } else {
      this.avgGain = (this.avgGain * (n - 1) + gain) / n;
      this.avgLoss = (this.avgLoss * (n - 1) + loss) / n;
    }
    this.current = rsiOf(this.avgGain, this.avgLoss);
    return this.current;
  }

  protected restart(): void {
    this.prev = undefined;
    this.changes = 0;
    this.avgGain = 0;
    this.avgLoss = 0;
  }
}

function rsiOf(avgGain: number, avgLoss: number): number {
  if (avgLoss === 0) return avgGain === 0 ? 50 : 100;
  return 100 - 100 / (1 + avgGain / avgLoss);
}

/** RSI over a whole array: one value per input, undefined for the first `period` inputs. */
export function rsi(values: readonly number[], period = 14): (number | undefined)[] {
  return runSeries(new Rsi(period), values);
}
