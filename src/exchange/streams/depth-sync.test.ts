/**
 * The local book's synchronisation rules (protocol notes 4, "Local book") on the pure state
 * machine: buffering until the snapshot, stale events dropped, the first-event rule, a gap
 * (before or after the first event) turning into a resync that keeps the gap event, and the
 * bound on the buffer.
 */
import { describe, expect, it } from 'vitest';
import { DepthSync } from './depth-sync.ts';
import type { DepthUpdateEvent, Level } from './market-payload-types.ts';

function diff(U: number | string, u: number | string, bids: Level[] = [], asks: Level[] = []): DepthUpdateEvent {
  return { eventType: 'depthUpdate', eventTime: Number(u), symbol: 'BTCPHP', firstUpdateId: String(U), finalUpdateId: String(u), bids, asks };
}
const SNAPSHOT = { lastUpdateId: '100', bids: [['10', '1']] as Level[], asks: [['11', '1']] as Level[] };

describe('DepthSync (notes 4 local book)', () => {
  it('buffers until the snapshot, drops u <= lastUpdateId, applies the first event spanning lastUpdateId+1, then chains', () => {
    const s = new DepthSync();
    expect(s.onEvent(diff(95, 98, [['9', '5']]))).toEqual({ kind: 'buffered' });
    expect(s.onEvent(diff(99, 100, [['8', '5']]))).toEqual({ kind: 'buffered' });
    expect(s.onEvent(diff(101, 103, [['10', '2']]))).toEqual({ kind: 'buffered' });
    expect(s.current).toBeUndefined();
    // 95-98 and 99-100 are at or below the snapshot: dropped; 101-103 applied.
    expect(s.onSnapshot(SNAPSHOT)).toEqual({ kind: 'synced', replayed: 1 });
    expect(s.current?.lastUpdateId).toBe(103n);
    expect(s.current?.bids.top()).toEqual([['10', '2']]);
    expect(s.onEvent(diff(104, 104, [], [['11', '0']]))).toEqual({ kind: 'applied' });
    expect(s.current?.asks.top()).toEqual([]);
    expect(s.lastEventTime).toBe(104);
    // A repeat of an applied event is stale, not a gap.
    expect(s.onEvent(diff(104, 104))).toEqual({ kind: 'stale' });
  });

  it('the first event may start before lastUpdateId+1 as long as it spans it', () => {
    const s = new DepthSync();
    s.onEvent(diff(98, 102, [['12', '1']]));
    expect(s.onSnapshot(SNAPSHOT)).toEqual({ kind: 'synced', replayed: 1 });
    expect(s.current?.lastUpdateId).toBe(102n);
    expect(s.current?.bestBid()).toEqual(['12', '1']);
  });

  it('a snapshot with nothing buffered after it is a usable book; the first live event then follows the first-event rule', () => {
    const s = new DepthSync();
    expect(s.onSnapshot(SNAPSHOT)).toEqual({ kind: 'synced', replayed: 0 });
    expect(s.current?.lastUpdateId).toBe(100n);
    expect(s.onEvent(diff(90, 100))).toEqual({ kind: 'stale' });
    expect(s.onEvent(diff(100, 101))).toEqual({ kind: 'applied' });
  });

  it('a snapshot older than the buffer (first event after it starts past lastUpdateId+1) resyncs, keeping the buffer from that event', () => {
    const s = new DepthSync();
    s.onEvent(diff(103, 105, [['7', '1']]));
    s.onEvent(diff(106, 106, [['6', '1']]));
    const r = s.onSnapshot(SNAPSHOT);
    expect(r).toEqual({ kind: 'resync', reason: 'snapshot too old for the stream: lastUpdateId 100, first event after it has U = 103 > 101' });
    expect(s.current).toBeUndefined();
    // The refetched snapshot is newer: both buffered events are still there to apply.
    expect(s.onSnapshot({ lastUpdateId: 104, bids: [], asks: [] })).toEqual({ kind: 'synced', replayed: 2 });
    expect(s.current?.bids.top()).toEqual([
      ['7', '1'],
      ['6', '1'],
    ]);
    expect(s.current?.lastUpdateId).toBe(106n);
  });

  it('a gap after the first event resyncs; the gap event and what follows buffer for the next snapshot', () => {
    const s = new DepthSync();
    s.onSnapshot(SNAPSHOT);
    expect(s.onEvent(diff(101, 102))).toEqual({ kind: 'applied' });
    expect(s.onEvent(diff(104, 105, [['5', '1']]))).toEqual({ kind: 'resync', reason: 'gap in the diff stream: expected U = 103 (previous u + 1), got U = 104' });
    expect(s.current).toBeUndefined();
    expect(s.onEvent(diff(106, 107, [['4', '1']]))).toEqual({ kind: 'buffered' });
    expect(s.onSnapshot({ lastUpdateId: 103, bids: [], asks: [] })).toEqual({ kind: 'synced', replayed: 2 });
    expect(s.current?.bids.top()).toEqual([
      ['5', '1'],
      ['4', '1'],
    ]);
  });

  it('an overlapping event after the first (U below previous u + 1, u above) breaks the chain too', () => {
    const s = new DepthSync();
    s.onSnapshot(SNAPSHOT);
    s.onEvent(diff(101, 105));
    expect(s.onEvent(diff(103, 107)).kind).toBe('resync');
  });

  it('a gap inside the buffer shows up while replaying it', () => {
    const s = new DepthSync();
    s.onEvent(diff(101, 101));
    s.onEvent(diff(103, 103));
    s.onEvent(diff(104, 104));
    expect(s.onSnapshot(SNAPSHOT)).toEqual({ kind: 'resync', reason: 'gap in the diff stream: expected U = 102 (previous u + 1), got U = 103' });
    expect(s.onSnapshot({ lastUpdateId: 102, bids: [], asks: [] })).toEqual({ kind: 'synced', replayed: 2 });
    expect(s.current?.lastUpdateId).toBe(104n);
  });

  it('ids beyond 2^53 compare exactly', () => {
    const s = new DepthSync();
    s.onEvent(diff('9007199254740993', '9007199254740994'));
    expect(s.onSnapshot({ lastUpdateId: '9007199254740992', bids: [], asks: [] })).toEqual({ kind: 'synced', replayed: 1 });
    expect(s.onEvent(diff('9007199254740996', '9007199254740996')).kind).toBe('resync');
  });

  it('bounds the buffer while the snapshot is awaited', () => {
    const s = new DepthSync({ maxBuffer: 2 });
    s.onEvent(diff(1, 1));
    s.onEvent(diff(2, 2));
    expect(s.onEvent(diff(3, 3))).toEqual({ kind: 'resync', reason: 'more than 2 diff events buffered while waiting for the snapshot: buffer cleared' });
    expect(s.onSnapshot({ lastUpdateId: 2, bids: [], asks: [] })).toEqual({ kind: 'synced', replayed: 1 });
  });

  it('reset drops the book; events buffer again, and those buffered before a snapshot are kept', () => {
    const s = new DepthSync();
    s.onSnapshot(SNAPSHOT);
    s.reset();
    expect(s.current).toBeUndefined();
    expect(s.onEvent(diff(101, 101, [['9', '1']]))).toEqual({ kind: 'buffered' });
    s.reset();
    expect(s.onEvent(diff(102, 102, [['8', '1']]))).toEqual({ kind: 'buffered' });
    expect(s.onSnapshot(SNAPSHOT)).toEqual({ kind: 'synced', replayed: 2 });
  });
});
