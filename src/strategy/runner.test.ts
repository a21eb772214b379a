import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from './define.ts';
import { RunnerInputError, StrategyParamsError } from './errors.ts';
import { place } from './intents/intents.ts';
import { StrategyRunner } from './runner.ts';
import type { StrategyRunnerOptions } from './runner.ts';
import { FakeStateView } from './testing/fake-state.ts';
import { candlesFromCloses } from './testing/test-candles.ts';
import { testInstrument } from './testing/test-instrument.ts';
import type { StrategyFailure } from './types.ts';

const params = z.object({ size: z.string().default('0.01'), fast: z.number().int().min(2).default(3) });
const candles = candlesFromCloses([100, 101, 102, 103, 104, 105], { startTime: 0 });
const closedAt = (i: number) => candles[i]!.closeTime + 1;

function setup(spec: Partial<Parameters<typeof defineStrategy>[0]> = {}, opts: Partial<StrategyRunnerOptions> = {}) {
  const view = new FakeStateView({ now: 0, instruments: [testInstrument()], balances: { PHP: '1000' } });
  const failures: StrategyFailure[] = [];
  const def = defineStrategy({ name: 'demo', params, symbols: ['BTCPHP'], onBar: () => [], ...spec } as never);
  const runner = new StrategyRunner(def, { state: view, onFailure: (f) => failures.push(f), ...opts });
  const feed = (i: number) => {
    view.time = Math.max(view.time, closedAt(i));
    return runner.bar('BTCPHP', '1m', candles[i]!);
  };
  return { view, failures, runner, feed };
}

describe('StrategyRunner: params', () => {
  it('validates params at construction with the parameter named', () => {
    expect(() => setup({}, { params: { fast: 'x' } })).toThrow(StrategyParamsError);
    expect(() => setup({}, { params: { fast: 'x' } })).toThrow(`param 'fast': expected integer >= 2, got "x"`);
    const { runner } = setup({}, { params: { fast: 5 } });
    expect(runner.params).toEqual({ size: '0.01', fast: 5 });
  });
});

describe('StrategyRunner: events and intents', () => {
  it('calls onStart with a fresh state per instance and returns its intents', () => {
    const spec = {
      state: () => ({ n: 0 }),
      onStart: (ctx: { state: { n: number }; symbol: string }) => {
        ctx.state.n++;
        return [place({ symbol: ctx.symbol, side: 'BUY', type: 'LIMIT', quantity: '1', price: '99' })];
      },
    };
    const a = setup(spec as never);
    const b = setup(spec as never);
    expect(a.runner.start()).toEqual([{ kind: 'place', symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '1', price: '99' }]);
    expect(a.runner.status).toBe('running');
    expect(b.runner.start()).toHaveLength(1);
    expect(a.runner.start()).toEqual([]); // once
  });

  it('delivers closed bars after warm-up only; earlier bars fill the history', () => {
    const seen: number[] = [];
    const { runner, feed } = setup({ warmup: 3, onBar: (ctx, bar) => void seen.push(bar.close, ctx.bars().length) });
    feed(0); // before start: history only
    runner.start();
    feed(1);
    expect(seen).toEqual([]);
    feed(2);
    feed(3);
    expect(seen).toEqual([102, 3, 103, 4]);
  });

  it('never lets a bar in before it closed (no lookahead)', () => {
    const { runner, view } = setup();
    runner.start();
    view.time = candles[0]!.closeTime; // last millisecond of the bar: still forming
    expect(() => runner.bar('BTCPHP', '1m', candles[0]!)).toThrow(RunnerInputError);
    expect(() => runner.bar('BTCPHP', '1m', candles[0]!)).toThrow(/only closed bars may reach a strategy/);
  });

  it('strategies see nothing past the last closed bar', () => {
    const lastSeen: (number | undefined)[] = [];
    const { runner, feed } = setup({
      onBar(ctx, bar) {
        const s = ctx.bars();
        expect(s.last).toBe(bar);
        expect(s.at(-1)).toBeUndefined();
        expect(s.close(s.length)).toBeUndefined();
        lastSeen.push(s.last?.openTime);
      },
    });
    runner.start();
    for (let i = 0; i < candles.length; i++) feed(i);
    expect(lastSeen).toEqual(candles.map((c) => c.openTime));
  });

  it('ignores re-sent and out-of-order bars', () => {
    const onBar = vi.fn(() => []);
    const { runner, feed } = setup({ onBar });
    runner.start();
    feed(1);
    feed(1);
    feed(0);
    expect(onBar).toHaveBeenCalledTimes(1);
    expect(runner.ignoredBars).toBe(2);
  });

  it('records book tops and trades for the context, converts order events to Decimal', () => {
    const got: unknown[] = [];
    const { runner } = setup({
      onBookTop: (ctx, top) => void got.push(top.mid, ctx.book()?.exact.askPrice),
      onTrade: (ctx) => void got.push(ctx.lastTrade()?.price),
      onOrderUpdate: (_ctx, u) => void got.push(u.executedQty.toFixed(), u.price?.toFixed()),
      onFill: (_ctx, f) => void got.push(f.price.plus(1).toFixed(), Object.isFrozen(f)),
    });
    runner.start();
    runner.bookTop({ symbol: 'BTCPHP', bidPrice: '99', bidQty: '1', askPrice: '101', askQty: '2', time: 1 });
    runner.bookTop({ symbol: 'OTHER', bidPrice: '1', bidQty: '1', askPrice: '2', askQty: '1', time: 1 });
    runner.trade({ symbol: 'BTCPHP', id: '18446744073709551615', price: '100.5', qty: '1', time: 2, buyerIsMaker: true });
    runner.orderUpdate({ symbol: 'BTCPHP', clientOrderId: 'c1', side: 'BUY', type: 'LIMIT', status: 'NEW', price: '99.50', executedQty: '0', cumulativeQuoteQty: '0', time: 3 });
    runner.fill({
      symbol: 'BTCPHP', clientOrderId: 'c1', orderId: '1', tradeId: '2', side: 'BUY', price: '99.5', qty: '1', quoteQty: '99.5',
      commission: '0', commissionAsset: 'PHP', isMaker: true, orderStatus: 'FILLED', cumulativeQty: '1', time: 4,
    });
    expect(got).toEqual([100, '101', 100.5, '0', '99.5', '100.5', true]);
  });

  it('the bar onBar receives is the frozen last bar of the history; an onBar(ctx) reads the same from ctx.bars()', () => {
    const got: unknown[] = [];
    const taking = setup({ onBar: (ctx, bar) => void got.push(bar === ctx.bars().last, Object.isFrozen(bar) && Object.isFrozen(bar.exact), bar.exact.close, bar.symbol) });
    taking.runner.start();
    taking.feed(2);
    const last: unknown[] = [];
    const reading = setup({
      onBar(ctx) {
        const bar = ctx.bars().last;
        last.push(bar === ctx.bars().at(0), Object.isFrozen(bar) && Object.isFrozen(bar?.exact), bar?.exact.close, bar?.close, bar?.interval);
      },
    });
    reading.runner.start();
    reading.feed(2);
    reading.feed(3);
    expect(got).toEqual([true, true, '102', 'BTCPHP']);
    expect(last).toEqual([true, true, '102', 102, '1m', true, true, '103', 103, '1m']);
  });

  it('order updates and fills keep their fields in order, absent amounts as undefined keys (as a spread of the input would)', () => {
    const got: unknown[] = [];
    const { runner } = setup({
      onOrderUpdate: (_ctx, u) => void got.push(Object.keys(u).join(','), u.price, Object.isFrozen(u)),
      onFill: (_ctx, f) => void got.push(Object.keys(f).join(',')),
    });
    runner.start();
    runner.orderUpdate({ symbol: 'BTCPHP', clientOrderId: 'c1', side: 'BUY', type: 'MARKET', status: 'FILLED', executedQty: '1', cumulativeQuoteQty: '99', time: 3, tag: 'entry', orderId: '7', origQty: '1', reason: 'r' });
    runner.fill({
      symbol: 'BTCPHP', clientOrderId: 'c1', orderId: '1', tradeId: '2', side: 'BUY', price: '99.5', qty: '1', quoteQty: '99.5',
      commission: '0', commissionAsset: 'PHP', isMaker: true, orderStatus: 'FILLED', cumulativeQty: '1', time: 4, tag: 'entry',
    });
    expect(got).toEqual([
      'symbol,clientOrderId,side,type,status,executedQty,cumulativeQuoteQty,time,tag,orderId,origQty,reason,price,stopPrice',
      undefined,
      true,
      'symbol,clientOrderId,orderId,tradeId,side,price,qty,quoteQty,commission,commissionAsset,isMaker,orderStatus,cumulativeQty,time,tag',
    ]);
  });
});

describe('StrategyRunner: isolation', () => {
  it('a throwing handler stops the strategy, is reported once, and nothing is rethrown', () => {
    const onBar = vi.fn(() => {
      throw new Error('division by zero in my strategy');
    });
    const onStop = vi.fn(() => []);
    const onTrade = vi.fn(() => []);
    const { runner, feed, failures, view } = setup({ onBar, onStop, onTrade });
    runner.start();
    expect(feed(0)).toEqual([]);
    expect(runner.status).toBe('failed');
    expect(failures).toHaveLength(1);
    const f = failures[0]!;
    expect(f).toMatchObject({ strategy: 'demo', handler: 'onBar', kind: 'threw', message: 'division by zero in my strategy', time: view.time });
    expect(f.stack).toContain('division by zero');
    expect(runner.failure).toBe(f);
    // no further handler is called, not even onStop
    feed(1);
    runner.trade({ symbol: 'BTCPHP', id: '1', price: '1', qty: '1', time: 1, buyerIsMaker: false });
    expect(runner.stop()).toEqual([]);
    expect(onBar).toHaveBeenCalledTimes(1);
    expect(onTrade).not.toHaveBeenCalled();
    expect(onStop).not.toHaveBeenCalled();
    expect(failures).toHaveLength(1);
  });

  it('non-Error throws are reported too', () => {
    const { runner, failures } = setup({ onStart: () => { throw 'plain string'; } } as never);
    runner.start();
    expect(failures[0]).toMatchObject({ handler: 'onStart', kind: 'threw', message: 'plain string' });
  });

  it('a throw that cannot be printed, or a return value that throws when read, is still the strategy failing, never the host', () => {
    const unprintable = { toString: () => { throw new Error('no text'); } };
    const trap = new Proxy([], { get: () => { throw new Error('get trap'); } });
    const cases: [string, () => unknown, Partial<StrategyFailure>][] = [
      ['throws a null-prototype object', () => { throw Object.create(null); }, { kind: 'threw', message: 'a value that cannot be printed was thrown' }],
      ['throws an object whose toString throws', () => { throw unprintable; }, { kind: 'threw', message: 'a value that cannot be printed was thrown' }],
      ['returns a Proxy whose reads throw', () => trap, { kind: 'bad-return', message: 'onStart returned a value that threw when read: get trap' }],
      ['returns an intent with a throwing getter', () => [{ kind: 'place', symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', get quantity() { throw new Error('getter'); } }], { kind: 'bad-return', message: 'onStart returned a value that threw when read: getter' }],
      ['returns a value whose then throws', () => ({ get then() { throw new Error('then'); } }), { kind: 'bad-return', message: 'onStart returned a value that threw when read: then' }],
    ];
    for (const [what, onStart, failure] of cases) {
      const { runner, failures } = setup({ onStart } as never);
      expect(() => runner.start(), what).not.toThrow();
      expect(runner.status, what).toBe('failed');
      expect(failures, what).toHaveLength(1);
      expect(failures[0], what).toMatchObject({ handler: 'onStart', ...failure });
    }
  });

  it('a bad intent stops the strategy, naming the field', () => {
    const { runner, feed, failures } = setup({
      onBar: (ctx) => [place({ symbol: ctx.symbol, side: 'BUY', type: 'LIMIT', quantity: '1', price: 101.5 as never })],
    });
    runner.start();
    expect(feed(0)).toEqual([]);
    expect(failures[0]).toMatchObject({ handler: 'onBar', kind: 'bad-intent', field: 'intents[0].price' });
    expect(runner.status).toBe('failed');
  });

  it('an async handler is refused without an unhandled rejection', async () => {
    const { runner, feed, failures } = setup({
      onBar: (async () => {
        throw new Error('async boom');
      }) as never,
    });
    runner.start();
    feed(0);
    await new Promise((r) => setTimeout(r, 10));
    expect(failures[0]).toMatchObject({ kind: 'bad-return', message: 'onBar returned a Promise: handlers must be synchronous and return intents' });
  });

  it('a state factory that throws is reported as an onStart failure', () => {
    const { runner, failures } = setup({ state: () => { throw new Error('no state'); } } as never);
    expect(runner.start()).toEqual([]);
    expect(failures[0]).toMatchObject({ handler: 'onStart', message: 'state(params) threw: no state' });
  });

  it('writes to frozen context data fail the strategy, not the host', () => {
    const { runner, failures } = setup({
      onStart: (ctx) => {
        (ctx.params as { fast: number }).fast = 99;
      },
    });
    runner.start();
    expect(failures[0]?.message).toMatch(/read only|read-only|Cannot assign/);
    expect(runner.params.fast).toBe(3);
  });

  it('one failing strategy does not affect another', () => {
    const bad = setup({ onBar: () => { throw new Error('x'); } });
    const good = setup({ onBar: (ctx) => [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: '10' })] });
    bad.runner.start();
    good.runner.start();
    bad.feed(0);
    expect(good.feed(0)).toHaveLength(1);
    expect(good.runner.status).toBe('running');
  });
});

describe('StrategyRunner: timer and stop', () => {
  it('fires onTimer on aligned multiples; a late host gets one call for the latest due time', () => {
    const times: number[] = [];
    const { runner, view } = setup({ timerMs: 1000, onTimer: (_ctx: unknown, t: number) => void times.push(t) } as never);
    view.time = 500;
    runner.start();
    expect(runner.nextTimerAt).toBe(1000);
    runner.timer(999);
    runner.timer(1000);
    runner.timer(1500);
    runner.timer(3500);
    expect(times).toEqual([1000, 3000]);
    expect(runner.nextTimerAt).toBe(4000);
  });

  it('stop calls onStop once and delivers its intents; later events are ignored', () => {
    const onBar = vi.fn(() => []);
    const { runner, feed } = setup({ onBar, onStop: (ctx, why) => (why.reason === 'shutdown' ? [{ kind: 'cancel', symbol: ctx.symbol, tag: 'bid' }] : []) });
    runner.start();
    expect(runner.stop('shutdown')).toEqual([{ kind: 'cancel', symbol: 'BTCPHP', tag: 'bid' }]);
    expect(runner.status).toBe('stopped');
    expect(runner.stop()).toEqual([]);
    feed(0);
    expect(onBar).not.toHaveBeenCalled();
  });

  it("logging the strategy's own objects leaves them writable: the log line gets a frozen copy", () => {
    const logs: { data?: Readonly<Record<string, unknown>> }[] = [];
    const failures: StrategyFailure[] = [];
    const { runner } = setup(
      {
        state: () => ({ n: 0, list: [] as number[] }),
        onStart: (ctx) => {
          const state = ctx.state as { n: number; list: number[] };
          ctx.log('state', { state, list: state.list });
          state.n++;
          state.list.push(1);
        },
      },
      { onLog: (e) => logs.push(e), onFailure: (f) => failures.push(f) },
    );
    runner.start();
    expect(failures).toEqual([]);
    expect(runner.status).toBe('running');
    expect(logs[0]?.data).toEqual({ state: { n: 0, list: [] }, list: [] });
    expect(Object.isFrozen(logs[0]?.data?.state)).toBe(true);
  });

  it('log lines reach the host with the strategy and time', () => {
    const logs: unknown[] = [];
    const { runner, view } = setup({ onStart: (ctx) => ctx.log('hello', { a: 1 }) }, { onLog: (e) => logs.push(e) });
    view.time = 42;
    runner.start();
    expect(logs).toEqual([{ strategy: 'demo', time: 42, message: 'hello', data: { a: 1 } }]);
  });
});

describe('StrategyRunner: ctx.plot to onPlot', () => {
  it('hands over each value with its time and its name\'s first style, in one entry object rewritten per value', () => {
    const seen: object[] = [];
    const entries = new Set<object>();
    const onBar = (ctx: { plot: (name: string, value: number, options?: object) => void }, bar: { close: number }) => {
      ctx.plot('close', bar.close, { pane: 'below', color: '#123456' });
      ctx.plot('twice', bar.close * 2);
    };
    const { runner, feed } = setup({ onBar } as never, {
      onPlot: (e) => {
        entries.add(e);
        seen.push({ ...e });
      },
    });
    runner.start();
    feed(0);
    feed(1);
    expect(seen).toEqual([
      { strategy: 'demo', name: 'close', time: closedAt(0), value: 100, pane: 'below', color: '#123456' },
      { strategy: 'demo', name: 'twice', time: closedAt(0), value: 200, pane: 'price', color: undefined },
      { strategy: 'demo', name: 'close', time: closedAt(1), value: 101, pane: 'below', color: '#123456' },
      { strategy: 'demo', name: 'twice', time: closedAt(1), value: 202, pane: 'price', color: undefined },
    ]);
    expect(entries.size).toBe(1);
  });
});
