import { describe, expect, it } from 'vitest';
import { amountText, cut, durationText, renderStatusBlock } from './render-block.ts';
import { colorWanted, redrawPrefix, StatusOutput, statusLogFields } from './status-output.ts';
import type { BotStatusSnapshot } from './types.ts';

const T0 = Date.parse('2024-03-13T10:00:00Z');

function snapshot(over: Partial<BotStatusSnapshot> = {}): BotStatusSnapshot {
  return {
    runId: 'run-1',
    kind: 'sandbox',
    state: 'running',
    startedAt: T0,
    endedAt: null,
    exitReason: null,
    exitDetail: null,
    asOf: T0 + 3_723_000,
    quoteAsset: 'PHP',
    strategies: [
      {
        name: 'sma',
        symbols: ['BTCPHP'],
        positions: [
          {
            symbol: 'BTCPHP',
            quantity: '0.002',
            averageEntryPrice: '2900000',
            markPrice: '3000000',
            markSource: 'last-fill',
            markTime: T0 + 3_720_000,
            unrealisedPnl: '200',
            realisedPnl: '-5.5',
          },
        ],
        openOrderCount: 1,
        openOrders: [
          { clientOrderId: 'hyabc1234bid-1', orderId: '9007199254740993', symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', price: '2890000', quantity: '0.001', executedQuantity: '0', status: 'NEW', createdAt: T0 + 60_000 },
        ],
        realisedPnl: '-5.5',
        unrealisedPnl: '200',
        fees: '1.25',
        lastSignal: { time: T0 + 3_720_000, kind: 'intent', summary: 'place BUY LIMIT 0.001 BTCPHP @ 2890000 [bid]', symbol: 'BTCPHP' },
        health: 'active',
        healthReason: null,
      },
      {
        name: 'mm',
        symbols: ['ETHPHP'],
        positions: [{ symbol: 'ETHPHP', quantity: '0', averageEntryPrice: null, markPrice: null, markSource: null, markTime: null, unrealisedPnl: '0', realisedPnl: '0' }],
        openOrderCount: 0,
        openOrders: [],
        realisedPnl: '0',
        unrealisedPnl: '0',
        fees: '0',
        lastSignal: null,
        health: 'failed',
        healthReason: 'TypeError: boom',
      },
    ],
    streams: { userStream: { state: 'LIVE', since: T0 + 1000, reason: 'resynced' }, marketData: { mode: 'stream', since: T0 + 2000, reason: null } },
    weight: [
      { pool: 'IP', used: 144, limit: 1200, share: 0.12, windowMs: 60_000 },
      { pool: 'ORDERS', used: 45, limit: 50, share: 0.9, windowMs: 10_000 },
    ],
    clockOffsetMs: 12,
    counts: { orders: 12, fills: 8, rejected: 1, bars: 62 },
    ...over,
  };
}

const NOW = T0 + 3_725_000;
/** The text without ANSI SGR codes. */
const strip = (t: string): string => t.split('\u001b[').map((part, i) => (i === 0 ? part : part.replace(/^[0-9;]*m/, ''))).join('');

describe('renderStatusBlock', () => {
  it('prints a running bot: state, streams, weight, counts, per strategy PnL, positions, open orders and last signal', () => {
    expect(renderStatusBlock(snapshot(), { now: NOW })).toBe(
      [
        'run run-1 (sandbox) RUNNING up 1h02m05s, started 2024-03-13 10:00:00Z, last record 2s ago',
        'user stream LIVE for 1h02m04s | market data stream for 1h02m03s | clock offset +12 ms',
        'weight: IP 12.0% (144/1200) | ORDERS 90.0% (45/50)',
        'orders 12, fills 8, rejected 1, bars 62',
        'sma [BTCPHP] active | realised -5.5 PHP | unrealised +200 PHP | fees 1.25 PHP | open orders 1',
        '  BTCPHP position 0.002 @ 2900000 | mark 3000000 (last fill 11:02:00Z, 5s ago) | unrealised +200 | realised -5.5',
        '  open BUY LIMIT BTCPHP 0.001 @ 2890000 NEW hyabc1234bid-1',
        '  last signal 11:02:00Z (5s ago) intent: place BUY LIMIT 0.001 BTCPHP @ 2890000 [bid]',
        'mm [ETHPHP] FAILED: TypeError: boom | realised 0 PHP | unrealised 0 PHP | fees 0 PHP | open orders 0',
        '  ETHPHP position 0 | no mark | unrealised 0 | realised 0',
        '  last signal: none yet',
      ].join('\n'),
    );
  });

  it('prints a stopped and a crashed run with their reason, a stale stream with its reason, polling, and unknowns', () => {
    const stopped = snapshot({ state: 'stopped', endedAt: T0 + 600_000, exitReason: 'signal', exitDetail: 'SIGINT', weight: [], clockOffsetMs: null });
    const lines = renderStatusBlock(stopped, { now: NOW }).split('\n');
    expect(lines[0]).toBe('run run-1 (sandbox) STOPPED (signal: SIGINT) at 2024-03-13 10:10:00Z after 10m00s, started 2024-03-13 10:00:00Z');
    expect(lines[1]).toBe('user stream LIVE for 1h02m04s | market data stream for 1h02m03s | clock offset unknown');
    expect(lines[2]).toBe('orders 12, fills 8, rejected 1, bars 62');

    const crashed = snapshot({
      state: 'crashed',
      endedAt: T0 + 60_000,
      exitReason: 'crashed',
      exitDetail: 'no stop written',
      streams: { userStream: { state: 'STALE', since: T0 + 30_000, reason: 'no message for 60000 ms' }, marketData: { mode: 'polling', since: T0 + 31_000, reason: 'btcphp@kline_1m STALE' } },
      counts: { orders: 0, fills: 0, rejected: 0, bars: null },
    });
    const c = renderStatusBlock(crashed, { now: T0 + 90_000 }).split('\n');
    expect(c[0]).toBe('run run-1 (sandbox) CRASHED (crashed: no stop written) at 2024-03-13 10:01:00Z after 1m00s, started 2024-03-13 10:00:00Z');
    expect(c[1]).toBe('user stream STALE for 1m00s (no message for 60000 ms) | market data polling for 59s (btcphp@kline_1m STALE) | clock offset +12 ms');
    expect(c[3]).toBe('orders 0, fills 0, rejected 0');
  });

  it('lists at most maxOpenOrders open orders and counts the rest', () => {
    const base = snapshot();
    const st = base.strategies[0]!;
    const order = st.openOrders[0]!;
    const many = { ...st, openOrderCount: 4, openOrders: [1, 2, 3, 4].map((n) => ({ ...order, clientOrderId: `c${n}`, executedQuantity: n === 1 ? '0.0004' : '0', status: n === 1 ? 'PARTIALLY_FILLED' : 'NEW' })) };
    const text = renderStatusBlock({ ...base, strategies: [many] }, { now: NOW, maxOpenOrders: 2 });
    expect(text).toContain('  open BUY LIMIT BTCPHP 0.001 @ 2890000 (0.0004 done) PARTIALLY_FILLED c1\n  open BUY LIMIT BTCPHP 0.001 @ 2890000 NEW c2\n  open ... 2 more\n');
  });

  it('colours words only when asked: the text without the codes is the same', () => {
    const plain = renderStatusBlock(snapshot(), { now: NOW });
    const coloured = renderStatusBlock(snapshot(), { now: NOW, color: true });
    expect(coloured).not.toBe(plain);
    expect(coloured).toContain('\u001b[32mRUNNING\u001b[0m');
    expect(coloured).toContain('\u001b[31m90.0%\u001b[0m');
    expect(coloured).toContain('\u001b[31mFAILED: TypeError: boom\u001b[0m');
    expect(strip(coloured)).toBe(plain);
  });

  it('cuts every line to the width, colour codes not counted', () => {
    const text = renderStatusBlock(snapshot(), { now: NOW, width: 30, color: true });
    for (const line of text.split('\n')) expect(strip(line).length).toBeLessThanOrEqual(30);
    expect(text.split('\n')[0]).toBe('run run-1 (sandbox) \u001b[32mRUNNING\u001b[0m up');
    expect(cut('ab\u001b[31mcdef\u001b[0m', 3)).toBe('ab\u001b[31mc\u001b[0m');
    expect(cut('abc', 3)).toBe('abc');
  });

  it('prints amounts rounded to 8 decimals (the snapshot keeps its 12), a tiny loss as 0', () => {
    const base = snapshot();
    const st = base.strategies[0]!;
    const p = { ...st.positions[0]!, averageEntryPrice: '2902902.902902902903', unrealisedPnl: '96.902902902903', realisedPnl: '-0.000000000001' };
    const text = renderStatusBlock({ ...base, strategies: [{ ...st, positions: [p], realisedPnl: '94.097097097097', fees: '8.8' }] }, { now: NOW });
    expect(text).toContain('sma [BTCPHP] active | realised +94.0970971 PHP | unrealised +200 PHP | fees 8.8 PHP');
    expect(text).toContain('  BTCPHP position 0.002 @ 2902902.9029029 | mark 3000000 (last fill 11:02:00Z, 5s ago) | unrealised +96.9029029 | realised 0');
    expect(amountText('not a number')).toBe('not a number');
  });

  it('durations: seconds resolution, never negative', () => {
    expect([0, 999, 45_000, 302_000, 3_723_000, 2 * 86_400_000 + 3 * 3_600_000 + 4 * 60_000, -5000].map(durationText)).toEqual(['0s', '0s', '45s', '5m02s', '1h02m03s', '2d03h04m', '0s']);
  });
});

describe('StatusOutput', () => {
  it('on a terminal redraws the block in place: cursor up by the lines drawn last, clear down', () => {
    const written: string[] = [];
    const out = new StatusOutput({ tty: true, write: (t) => written.push(t), columns: () => 200, env: {} });
    out.show(snapshot(), NOW);
    out.show(snapshot(), NOW + 1000);
    const lines = renderStatusBlock(snapshot(), { now: NOW }).split('\n').length;
    expect(written[0]?.startsWith('run run-1')).toBe(true);
    expect(written[1]?.startsWith(`\r\u001b[${lines}A\u001b[J`)).toBe(true);
    expect(written[1]?.endsWith('\n')).toBe(true);
    // Colour on a terminal unless NO_COLOR.
    expect(written[0]).toContain('\u001b[32m');
    out.release();
    out.show(snapshot(), NOW + 2000);
    expect(written[2]?.startsWith('run run-1')).toBe(true);
    expect(redrawPrefix(0)).toBe('');
  });

  it('follows NO_COLOR and FORCE_COLOR', () => {
    expect(colorWanted({ NO_COLOR: '1' }, true)).toBe(false);
    expect(colorWanted({ NO_COLOR: '', FORCE_COLOR: '1' }, false)).toBe(true);
    expect(colorWanted({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colorWanted({}, false)).toBe(false);
    const written: string[] = [];
    new StatusOutput({ tty: true, write: (t) => written.push(t), columns: () => undefined, env: { NO_COLOR: '1' } }).show(snapshot(), NOW);
    expect(written[0]).toBe(`${renderStatusBlock(snapshot(), { now: NOW })}\n`);
  });

  it('off a terminal logs one JSON status line per refresh, money as decimal strings', () => {
    const logged: [Record<string, unknown>, string][] = [];
    const written: string[] = [];
    const out = new StatusOutput({ tty: false, write: (t) => written.push(t), logger: { info: ((o: Record<string, unknown>, m: string) => logged.push([o, m])) as never } });
    out.show(snapshot(), NOW);
    expect(written).toEqual([]);
    expect(logged).toHaveLength(1);
    expect(logged[0]?.[1]).toBe('status');
    expect(logged[0]?.[0]).toEqual(statusLogFields(snapshot()));
    expect(statusLogFields(snapshot())).toMatchObject({
      runId: 'run-1',
      state: 'running',
      userStream: { state: 'LIVE', since: T0 + 1000 },
      marketData: 'stream',
      weight: { IP: 0.12, ORDERS: 0.9 },
      clockOffsetMs: 12,
      strategies: [
        { name: 'sma', health: 'active', positions: { BTCPHP: '0.002' }, openOrders: 1, realisedPnl: '-5.5', unrealisedPnl: '200' },
        { name: 'mm', health: 'failed', healthReason: 'TypeError: boom', positions: { ETHPHP: '0' }, openOrders: 0, lastSignal: null },
      ],
    });
  });
});
