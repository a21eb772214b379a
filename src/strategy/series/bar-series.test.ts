import { describe, expect, it } from 'vitest';
import {
  adx as adxSeries,
  bollinger as bollingerSeries,
  highest as highestSeries,
  lowest as lowestSeries,
  ema as emaSeries,
  macd as macdSeries,
  rsi as rsiSeries,
  sma as smaSeries,
  stddev as stddevSeries,
  stochastic as stochasticSeries,
  vwap as vwapSeries,
} from '../../core/indicators/index.ts';
import { slowUp, upThenDown } from '../../core/synthetic/canned.ts';
import { BarHistory } from './bar-series.ts';
import { crossover, crossunder, ValueRing } from './line.ts';
import type { Line } from './line.ts';
import { candlesFromCloses } from '../testing/test-candles.ts';
import type { Candle } from '../../core/indicators/candle.ts';
import type { Bar } from '../types.ts';

const asBars = (closes: number[]): Bar[] => candlesFromCloses(closes).map((c) => Object.freeze({ ...c, symbol: 'BTCPHP', interval: '1m' as const }));

function history(closes: number[], capacity = 100): BarHistory {
  const h = new BarHistory('BTCPHP', '1m', capacity);
  for (const b of asBars(closes)) h.append(b);
  return h;
}

describe('BarHistory view', () => {
  it('indexes from the last closed bar; past either end is undefined', () => {
    const s = history([1, 2, 3]).view;
    expect(s.length).toBe(3);
    expect(s.close()).toBe(3);
    expect(s.close(2)).toBe(1);
    expect(s.close(3)).toBeUndefined();
    expect(s.close(-1)).toBeUndefined();
    expect(s.at(0.5)).toBeUndefined();
    expect(s.last?.close).toBe(3);
    expect(s.closes()).toEqual([1, 2, 3]);
    expect(s.closes(2)).toEqual([2, 3]);
    expect(s.closes(10)).toEqual([1, 2, 3]);
    expect(s.highs(1)).toEqual([3]);
    expect(s.bars(1)[0]?.exact.close).toBe('3');
  });

  it('hands out frozen data and no way to write', () => {
    const s = history([1, 2]).view;
    expect(Object.isFrozen(s)).toBe(true);
    expect(Object.isFrozen(s.closes())).toBe(true);
    expect(() => (s.closes() as number[]).push(5)).toThrow(TypeError);
    expect(() => ((s as unknown as { symbol: string }).symbol = 'X')).toThrow(TypeError);
    expect(Object.keys(s)).not.toContain('append');
  });

  it('gives back the bars appended, field for field and frozen: the last as appended, older ones the same object while kept', () => {
    const candles = candlesFromCloses(Array.from({ length: 12 }, (_, i) => `${100 + i}.5`), { volume: '2.25' });
    const h = new BarHistory('BTCPHP', '1m', 5);
    const appended: Bar[] = [];
    for (const c of candles) {
      const bar: Bar = Object.freeze({ symbol: 'BTCPHP', interval: '1m', ...c, exact: Object.freeze({ ...c.exact }) });
      appended.push(bar);
      h.append(bar);
    }
    const s = h.view;
    expect(s.last).toBe(appended[11]);
    expect(s.at(0)).toBe(appended[11]);
    for (let ago = 1; ago < 5; ago++) {
      const got = s.at(ago)!;
      expect(got).toEqual(appended[11 - ago]);
      expect(Object.isFrozen(got) && Object.isFrozen(got.exact)).toBe(true);
      expect(s.at(ago)).toBe(got);
    }
    expect(s.at(5)).toBeUndefined();
    expect(s.bars().map((b) => b.exact.close)).toEqual(appended.slice(7).map((b) => b.exact.close));
    expect(s.opens(2)).toEqual([appended[10]!.open, appended[11]!.open]);
    expect(s.volume(3)).toBe(2.25);
  });

  it('a pushed candle is copied in; its Bar is built on request, frozen, the same object while it is the last', () => {
    const candles = candlesFromCloses(['10.5', '11.25', '12'], { volume: '3' });
    const h = new BarHistory('BTCPHP', '1m', 2);
    const sma = h.view.sma(2);
    const scratch = { ...candles[0]!, exact: { ...candles[0]!.exact } };
    for (const c of candles) {
      Object.assign(scratch, c, { exact: Object.assign(scratch.exact, c.exact) });
      h.push(scratch); // one reused object, as the backtest's journal source hands them out
    }
    scratch.exact.close = 'changed';
    const last = h.view.last!;
    expect(last).toEqual({ symbol: 'BTCPHP', interval: '1m', ...candles[2], exact: { ...candles[2]!.exact } });
    expect(Object.isFrozen(last) && Object.isFrozen(last.exact)).toBe(true);
    expect(h.view.at(0)).toBe(last);
    expect(h.view.at(1)?.exact.close).toBe('11.25');
    expect(h.view.at(2)).toBeUndefined();
    expect(sma.value).toBeCloseTo(11.625, 12);
    expect(h.view.ema(2).value).toBeCloseTo(11.625, 12); // asked for late: back-filled from the columns
  });

  it('keeps the texts of a reused text object by reference: the kept bar\'s own texts, read only when a Bar is built', () => {
    const candles = candlesFromCloses(['10.5', '11.25', '12', '12.75'], { volume: '3' });
    // A source that reuses one text object and offers `keep` (the journal's replay): each kept
    // object reads its bar's texts when asked, and counts the reads.
    let reads = 0;
    const keptOf = (t: Candle['exact']): Candle['exact'] => ({
      get open() { reads++; return t.open; },
      get high() { return t.high; },
      get low() { return t.low; },
      get close() { return t.close; },
      get volume() { return t.volume; },
    });
    let current = candles[0]!;
    const live = { get open() { return current.exact.open; }, get high() { return current.exact.high; }, get low() { return current.exact.low; }, get close() { return current.exact.close; }, get volume() { return current.exact.volume; }, keep: () => keptOf(current.exact) };
    const scratch = { ...candles[0]!, exact: live };
    const h = new BarHistory('BTCPHP', '1m', 3);
    for (const c of candles) {
      current = c;
      Object.assign(scratch, { openTime: c.openTime, closeTime: c.closeTime, open: c.open, high: c.high, low: c.low, close: c.close, volume: c.volume });
      h.push(scratch);
    }
    current = { ...candles[0]!, exact: { ...candles[0]!.exact, close: 'moved on' } };
    expect(reads).toBe(0);
    expect(h.view.at(1)?.exact).toEqual({ ...candles[2]!.exact });
    expect(h.view.last?.exact.close).toBe('12.75');
    expect(h.view.at(2)?.exact.close).toBe('11.25');
    expect(reads).toBe(3);
    expect(h.view.ema(2).value).toBeCloseTo(12.375, 12); // back-filled over the kept bars
  });

  it('views and lines have fast, fixed shapes with their fields as own enumerable properties', () => {
    const s = history([1, 2, 3]).view;
    expect(Object.keys(s).slice(0, 6)).toEqual(['symbol', 'interval', 'length', 'count', 'last', 'at']);
    const line = s.sma(2);
    expect(Object.keys(line)).toEqual(['value', 'at', 'last', 'ready']);
    expect(Object.isFrozen(line)).toBe(true);
    expect({ ...line }.value).toBe(2.5);
    const { at } = line;
    expect(at(1)).toBe(1.5);
  });

  it('keeps only `capacity` bars but counts all', () => {
    const s = history([1, 2, 3, 4, 5], 3).view;
    expect(s.length).toBe(3);
    expect(s.count).toBe(5);
    expect(s.closes()).toEqual([3, 4, 5]);
    expect(s.close(3)).toBeUndefined();
  });

  it('computes indicator lines incrementally, equal to the batch forms', () => {
    const closes = slowUp(3, 300).map((b) => b.close);
    const h = new BarHistory('BTCPHP', '1m', 500);
    const bars = asBars(closes);
    const sma = h.view.sma(20);
    const ema = h.view.ema(12);
    bars.slice(0, 150).forEach((b) => h.append(b));
    const rsi = h.view.rsi(14); // asked for late: back-filled over the kept bars
    bars.slice(150).forEach((b) => h.append(b));
    expect(sma.value).toBeCloseTo(smaSeries(closes, 20).at(-1)!, 9);
    expect(ema.value).toBeCloseTo(emaSeries(closes, 12).at(-1)!, 9);
    expect(rsi.value).toBeCloseTo(rsiSeries(closes, 14).at(-1)!, 9);
    expect(sma.at(5)).toBeCloseTo(smaSeries(closes, 20).at(-6)!, 9);
    expect(h.view.sma(20)).toBe(sma); // cached
  });

  it('lines are undefined during warm-up and read only closed bars', () => {
    const h = history([1, 2]);
    const sma3 = h.view.sma(3);
    expect(sma3.value).toBeUndefined();
    expect(sma3.ready).toBe(false);
    h.append(asBars([1, 2, 6])[2]!);
    expect(sma3.value).toBe(3);
    expect(sma3.last(5)).toEqual([undefined, undefined, 3]);
  });

  it('bollinger, atr, highest, lowest and field lines', () => {
    const s = history([1, 2, 3, 6]).view;
    const bb = s.bollinger(3, 2);
    expect(bb.middle.value).toBeCloseTo(11 / 3, 12);
    expect(bb.upper.value! - bb.middle.value!).toBeCloseTo(2 * Math.sqrt(78 / 27), 12);
    expect(s.highest(2).value).toBe(6);
    expect(s.lowest(2).value).toBe(2); // bar 3 spans 2..3, bar 4 spans 3..6
    expect(s.line('close').at(1)).toBe(3);
    expect(s.atr(2).value).toBeDefined();
    expect(() => s.sma(0)).toThrow(/period must be an integer >= 1/);
    expect(() => s.line('vwap' as 'close')).toThrow(/unknown bar field 'vwap'/);
  });

  it('stddev, macd, stochastic, adx and vwap lines: back-filled when asked for late, equal to the batch forms, read with at(ago)', () => {
    const closes = slowUp(5, 300).map((b) => b.close);
    // volumes that vary, with a run of zero-volume bars
    const bars = candlesFromCloses(closes).map((c, i) =>
      Object.freeze({ ...c, volume: i >= 200 && i < 210 ? 0 : 1 + (i % 5), symbol: 'BTCPHP', interval: '1m' as const }),
    );
    type Lines = ReturnType<typeof linesOf>;
    const linesOf = (h: BarHistory) => ({
      stddev: h.view.stddev(),
      stddev5: h.view.stddev(5, 'high'),
      macd: h.view.macd(),
      stoch: h.view.stochastic(5, 3, 3),
      adx: h.view.adx(),
      vwap: h.view.vwap(4),
    });
    const early = new BarHistory('BTCPHP', '1m', 500);
    const fromStart = linesOf(early);
    const late = new BarHistory('BTCPHP', '1m', 500);
    let lateLines: Lines | undefined;
    bars.forEach((b, i) => {
      early.append(b);
      late.append(b);
      if (i === 99) lateLines = linesOf(late); // asked for after 100 bars: back-filled over them
    });
    const lines = lateLines!;
    const flat = (l: Lines) => [
      l.stddev,
      l.stddev5,
      l.macd.macd,
      l.macd.signal,
      l.macd.histogram,
      l.stoch.k,
      l.stoch.d,
      l.adx.adx,
      l.adx.plusDi,
      l.adx.minusDi,
      l.vwap,
    ];
    flat(lines).forEach((line, j) => expect(line.last(300)).toEqual(flat(fromStart)[j]!.last(300)));
    const cl = bars.map((b) => b.close);
    const ago = (xs: readonly unknown[], k: number) => xs[xs.length - 1 - k];
    for (const k of [0, 3, 95, 250, 299]) {
      expect(lines.stddev.at(k)).toBe(ago(stddevSeries(cl, 20), k));
      expect(lines.stddev5.at(k)).toBe(ago(stddevSeries(bars.map((b) => b.high), 5), k));
      const m = ago(macdSeries(cl), k) as ReturnType<typeof macdSeries>[number];
      expect([lines.macd.macd.at(k), lines.macd.signal.at(k), lines.macd.histogram.at(k)]).toEqual([m?.macd, m?.signal, m?.histogram]);
      const s = ago(stochasticSeries(bars, 5, 3, 3), k) as ReturnType<typeof stochasticSeries>[number];
      expect([lines.stoch.k.at(k), lines.stoch.d.at(k)]).toEqual([s?.k, s?.d]);
      const a = ago(adxSeries(bars), k) as ReturnType<typeof adxSeries>[number];
      expect([lines.adx.adx.at(k), lines.adx.plusDi.at(k), lines.adx.minusDi.at(k)]).toEqual([a?.adx, a?.plusDi, a?.minusDi]);
      expect(lines.vwap.at(k)).toBe(ago(vwapSeries(bars, 4), k));
    }
    // warm-up as documented (first value at bar index i, ago = 299 - i), and a window of zero volume has no vwap
    const firstAt = (line: Line) => line.last(300).findIndex((x) => x !== undefined);
    expect(firstAt(lines.stddev)).toBe(19);
    expect(firstAt(lines.macd.macd)).toBe(25);
    expect(firstAt(lines.macd.signal)).toBe(33);
    expect(firstAt(lines.macd.histogram)).toBe(33);
    expect(firstAt(lines.stoch.k)).toBe(6);
    expect(firstAt(lines.stoch.d)).toBe(8);
    expect(firstAt(lines.adx.plusDi)).toBe(14);
    expect(firstAt(lines.adx.minusDi)).toBe(14);
    expect(firstAt(lines.adx.adx)).toBe(27);
    expect(firstAt(lines.vwap)).toBe(3);
    expect(lines.vwap.last(300).slice(202, 211).map((x) => x !== undefined)).toEqual([true, false, false, false, false, false, false, false, true]);
    // cached per arguments
    const v = late.view;
    expect(v.stddev()).toBe(lines.stddev);
    expect(v.stddev(20, 'close')).toBe(lines.stddev);
    expect(v.macd()).toBe(lines.macd);
    expect(v.stochastic(5, 3, 3)).toBe(lines.stoch);
    expect(v.adx(14)).toBe(lines.adx);
    expect(v.vwap(4)).toBe(lines.vwap);
    expect(Object.isFrozen(lines.macd)).toBe(true);
    expect(() => v.macd(26, 12)).toThrow(/must not exceed slow/);
    expect(() => v.vwap(0)).toThrow(/vwap: period must be an integer >= 1/);
    expect(() => v.stddev(20, 'vwap' as 'close')).toThrow(/unknown bar field 'vwap'/);
  });

  it('crossover / crossunder over lines and levels', () => {
    const h = history([10, 10, 10, 10]);
    const fast = h.view.sma(2);
    const slow = h.view.sma(3);
    h.append(asBars([10, 10, 10, 10, 12])[4]!);
    expect(crossover(fast, slow)).toBe(true);
    expect(crossover(h.view.line('close'), 11)).toBe(true);
    expect(crossunder(fast, slow)).toBe(false);
    h.append(asBars([10, 10, 10, 10, 12, 12])[5]!);
    expect(crossover(fast, slow)).toBe(false);
    h.append(asBars([10, 10, 10, 10, 12, 12, 8])[6]!);
    expect(crossunder(fast, slow)).toBe(true);
  });
});

/** Plain arithmetic, written out here so the composed lines are checked against something other than core/indicators. */
const plain = {
  /** Wilder's RSI: first value at index period (the simple means of the first `period` changes). */
  rsi(xs: readonly number[], period: number): (number | undefined)[] {
    let gain = 0;
    let loss = 0;
    return xs.map((x, i) => {
      if (i === 0) return undefined;
      const ch = x - xs[i - 1]!;
      const [g, l] = [Math.max(ch, 0), Math.max(-ch, 0)];
      if (i < period) {
        gain += g;
        loss += l;
        return undefined;
      }
      if (i === period) [gain, loss] = [(gain + g) / period, (loss + l) / period];
      else [gain, loss] = [(gain * (period - 1) + g) / period, (loss * (period - 1) + l) / period];
      return loss === 0 ? (gain === 0 ? 50 : 100) : 100 - 100 / (1 + gain / loss);
    });
  },
  /** EMA seeded with the SMA of the first `period` defined values; undefined inputs are skipped (no output there). */
  ema(xs: readonly (number | undefined)[], period: number): (number | undefined)[] {
    const seen: number[] = [];
    let e: number | undefined;
    return xs.map((x) => {
      if (x === undefined) return undefined;
      seen.push(x);
      if (e !== undefined) return (e = e + (2 / (period + 1)) * (x - e));
      if (seen.length === period) e = seen.reduce((a, b) => a + b, 0) / period;
      return e;
    });
  },
  /** Mean of the last `period` defined values; undefined inputs are skipped (no output there). */
  sma(xs: readonly (number | undefined)[], period: number): (number | undefined)[] {
    const seen: number[] = [];
    return xs.map((x) => {
      if (x === undefined) return undefined;
      seen.push(x);
      return seen.length < period ? undefined : seen.slice(-period).reduce((a, b) => a + b, 0) / period;
    });
  },
  /** Wilder's ATR over bars; first value at index period - 1. */
  atr(bars: readonly Candle[], period: number): (number | undefined)[] {
    let a: number | undefined;
    let sum = 0;
    return bars.map((b, i) => {
      const pc = i === 0 ? undefined : bars[i - 1]!.close;
      const tr = pc === undefined ? b.high - b.low : Math.max(b.high - b.low, Math.abs(b.high - pc), Math.abs(b.low - pc));
      if (a !== undefined) return (a = (a * (period - 1) + tr) / period);
      sum += tr;
      if (i === period - 1) a = sum / period;
      return a;
    });
  },
};

const expectClose = (got: readonly (number | undefined)[], want: readonly (number | undefined)[]) => {
  expect(got.length).toBe(want.length);
  got.forEach((g, i) => {
    if (want[i] === undefined) expect(g, `index ${i}`).toBeUndefined();
    else expect(g, `index ${i}`).toBeCloseTo(want[i]!, 9);
  });
};
const firstAt = (line: Line, n: number) => line.last(n).findIndex((x) => x !== undefined);

describe('indicators of indicators (a line as the source)', () => {
  const closes = upThenDown(7, 400).map((b) => b.close);
  const bars = asBars(closes);

  it('EMA(9) of RSI(14) and SMA(20) of ATR(14) equal the plain computation, bar for bar', () => {
    const h = new BarHistory('BTCPHP', '1m', 500);
    const s = h.view;
    const emaRsi = s.ema(9, s.rsi(14));
    const smaAtr = s.sma(20, s.atr(14));
    bars.forEach((b) => h.append(b));
    expectClose(emaRsi.last(400), plain.ema(plain.rsi(closes, 14), 9));
    expectClose(smaAtr.last(400), plain.sma(plain.atr(bars, 14), 20));
    // warm-up: RSI(14) from bar 14, so its 9th value (the EMA's seed) at bar 22; ATR(14) from 13, its 20th value at 32
    expect(firstAt(s.rsi(14), 400)).toBe(14);
    expect(firstAt(emaRsi, 400)).toBe(22);
    expect(emaRsi.at(400 - 1 - 22)).toBeCloseTo(plain.rsi(closes, 14).slice(14, 23).reduce((a, b) => a! + b!, 0)! / 9, 9); // seeded with the SMA
    expect(firstAt(smaAtr, 400)).toBe(32);
  });

  it('the warm-up boundary, bar by bar: no value until the source has `period` values', () => {
    const h = new BarHistory('BTCPHP', '1m', 50);
    const sma3 = h.view.sma(3, h.view.sma(4));
    bars.slice(0, 5).forEach((b) => h.append(b));
    expect([sma3.value, sma3.ready]).toEqual([undefined, false]); // sma(4) has 2 values
    h.append(bars[5]!);
    expect(sma3.value).toBeCloseTo((plain.sma(closes, 4).slice(3, 6) as number[]).reduce((a, b) => a + b) / 3, 12);
    expect(sma3.ready).toBe(true);
  });

  it('an indicator of an indicator of an indicator: stepped after its sources whichever order they were asked for in, asked for late back-filled', () => {
    const early = new BarHistory('BTCPHP', '1m', 500);
    const e = early.view;
    const chain = e.sma(3, e.ema(4, e.rsi(5)));
    const late = new BarHistory('BTCPHP', '1m', 500);
    let lateChain: Line | undefined;
    bars.forEach((b, i) => {
      early.append(b);
      late.append(b);
      if (i === 99) lateChain = late.view.sma(3, late.view.ema(4, late.view.rsi(5)));
      if (i === 150) late.view.ema(7, late.view.line('close')); // a later line does not disturb the chain
    });
    const want = plain.sma(plain.ema(plain.rsi(closes, 5), 4), 3);
    expectClose(chain.last(400), want);
    expectClose(lateChain!.last(400), want);
    expect(firstAt(chain, 400)).toBe(5 + 3 + 2);
    // reading the chain every bar from inside the loop gives the same bar's values
    const h = new BarHistory('BTCPHP', '1m', 500);
    const seen: (number | undefined)[] = [];
    for (const b of bars) {
      h.append(b);
      seen.push(h.view.sma(3, h.view.ema(4, h.view.rsi(5))).value);
    }
    expectClose(seen, want);
  });

  it('is memoised: the same call returns the same line every bar', () => {
    const h = history(closes.slice(0, 30));
    const s = h.view;
    const rsi = s.rsi(14);
    const a = s.ema(9, rsi);
    const bb = s.bollinger(10, 2, rsi);
    const m = s.macd(3, 6, 4, rsi);
    for (const b of bars.slice(30, 60)) {
      h.append(b);
      expect(s.rsi(14)).toBe(rsi);
      expect(s.ema(9, s.rsi(14))).toBe(a);
      expect(s.bollinger(10, 2, s.rsi(14))).toBe(bb);
      expect(s.macd(3, 6, 4, s.rsi(14))).toBe(m);
    }
    expect(s.ema(9, s.rsi(14, 'close'))).toBe(a);
    expect(s.ema(10, rsi)).not.toBe(a);
    expect(s.sma(9, rsi)).not.toBe(a);
    expect(s.ema(9, s.line('close'))).not.toBe(s.ema(9)); // a line of the close is its own source (same values)
    expect(s.ema(9, s.line('close')).value).toBeCloseTo(s.ema(9).value!, 12);
    expect(Object.keys(a)).toEqual(['value', 'at', 'last', 'ready']);
    expect(Object.isFrozen(a) && Object.isFrozen(bb)).toBe(true);
  });

  it('rsi, highest, lowest, stddev, bollinger and macd of a line equal the batch forms over its values', () => {
    const h = new BarHistory('BTCPHP', '1m', 500);
    const s = h.view;
    const src = s.ema(5);
    const lines = { rsi: s.rsi(6, src), hi: s.highest(7, src), lo: s.lowest(7, src), sd: s.stddev(8, src), bb: s.bollinger(9, 1.5, src), m: s.macd(4, 9, 3, src) };
    bars.forEach((b) => h.append(b));
    const values = emaSeries(closes, 5).slice(4) as number[]; // the source's values (from bar 4)
    const pad = <T>(xs: readonly (T | undefined)[]) => [...(Array(4).fill(undefined) as undefined[]), ...xs];
    expectClose(lines.rsi.last(400), pad(rsiSeries(values, 6)));
    expect(lines.hi.last(400)).toEqual(pad(highestSeries(values, 7)));
    expect(lines.lo.last(400)).toEqual(pad(lowestSeries(values, 7)));
    expectClose(lines.sd.last(400), pad(stddevSeries(values, 8)));
    const bb = pad(bollingerSeries(values, 9, 1.5));
    expectClose(lines.bb.upper.last(400), bb.map((b) => b?.upper));
    expectClose(lines.bb.lower.last(400), bb.map((b) => b?.lower));
    const m = pad(macdSeries(values, 4, 9, 3));
    expectClose(lines.m.signal.last(400), m.map((x) => x?.signal));
    expectClose(lines.m.histogram.last(400), m.map((x) => x?.histogram));
    expect(firstAt(lines.bb.middle, 400)).toBe(4 + 8);
  });

  it('a source without a value mid-stream (vwap over zero volume) is skipped: no value on those bars, the others continue over its values', () => {
    const vbars = candlesFromCloses(closes.slice(0, 80)).map((c, i) => Object.freeze({ ...c, volume: i >= 30 && i < 36 ? 0 : 1 + (i % 3), symbol: 'BTCPHP', interval: '1m' as const }));
    const h = new BarHistory('BTCPHP', '1m', 100);
    const s = h.view;
    const smaVwap = s.sma(5, s.vwap(3));
    vbars.forEach((b) => h.append(b));
    const vw = vwapSeries(vbars, 3);
    expect(vw.slice(30, 37).map((x) => x !== undefined)).toEqual([true, true, false, false, false, false, true]);
    expectClose(smaVwap.last(80), plain.sma(vw, 5));
    expect(smaVwap.at(80 - 1 - 33)).toBeUndefined();
  });

  it('refuses a line of another series and a line of its own making, naming the call', () => {
    const s = history(closes.slice(0, 30)).view;
    const eth = new BarHistory('ETHPHP', '1m', 100);
    expect(() => s.ema(9, eth.view.rsi(14))).toThrow('ema(9, source): the source line rsi(14, close) is a line of ETHPHP 1m, not of BTCPHP 1m');
    const twin = history(closes.slice(0, 30));
    expect(() => s.sma(3, twin.view.bollinger().upper)).toThrow('sma(3, source): the source line bollinger(20, 2, close).upper is a line of another BTCPHP 1m series, not of BTCPHP 1m');
    const own = { at: (ago: number) => (ago === 0 ? 1 : undefined) } as unknown as Line;
    expect(() => s.rsi(14, own)).toThrow(/^rsi\(14, source\): the source is not a line of BTCPHP 1m .*pass a bar field \(open, high, low, close, volume\) or a line this series made/);
    expect(() => s.bollinger(20, 2, new ValueRing(5).asLine())).toThrow(/^bollinger\(20, 2, source\): the source is not a line of BTCPHP 1m/);
    expect(() => s.macd(12, 26, 9, own)).toThrow(/^macd\(12, 26, 9, source\)/);
    for (const call of [() => s.sma(2, own), () => s.highest(2, own), () => s.lowest(2, own), () => s.stddev(2, own)]) expect(call).toThrow(/source\): the source is not a line/);
    expect(() => s.ema(9, own)).toThrow(expect.objectContaining({ code: 'STRATEGY_CONTEXT' }));
    expect(() => s.ema(0, s.rsi(14))).toThrow(/ema: period must be an integer >= 1/);
    expect(() => s.sma(2, 'vwap' as 'close')).toThrow(/unknown bar field 'vwap'/);
    // nothing refused was remembered: the same call with a good source works
    expect(s.ema(9, s.rsi(14)).ready).toBe(true);
  });
});
