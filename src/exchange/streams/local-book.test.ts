/**
 * localOrderBook (local-book.ts): the I/O around the sync rules. Diffs come from a Subject, the
 * snapshot from a fetcher the test resolves by hand, retries run on a VirtualTimeScheduler.
 */
import { Subject, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { localOrderBook, type LocalBookUpdate } from './local-book.ts';
import type { DepthUpdateEvent, Level } from './market-payload-types.ts';
import type { DepthSnapshotLike } from './order-book.ts';

function diff(U: number, u: number, bids: Level[] = [], asks: Level[] = []): DepthUpdateEvent {
  return { eventType: 'depthUpdate', eventTime: 1000 + u, symbol: 'BTCPHP', firstUpdateId: String(U), finalUpdateId: String(u), bids, asks };
}

/** A fetcher whose calls the test settles one by one. */
function manualFetcher() {
  const calls: { resolve: (s: DepthSnapshotLike) => void; reject: (e: unknown) => void }[] = [];
  const fetch = () => new Promise<DepthSnapshotLike>((resolve, reject) => calls.push({ resolve, reject }));
  return { calls, fetch };
}

const settle = () => new Promise((r) => setImmediate(r));

function setup(options: { maxBuffer?: number; resync$?: Subject<string> } = {}) {
  const scheduler = new VirtualTimeScheduler();
  const diffs = new Subject<DepthUpdateEvent>();
  const fetcher = manualFetcher();
  const out: LocalBookUpdate[] = [];
  const ended: { completed: boolean; error?: unknown } = { completed: false };
  const sub = diffs.pipe(localOrderBook(fetcher.fetch, { depth: 2, retryDelayMs: 500, scheduler, ...options })).subscribe({
    next: (u) => out.push(u),
    error: (e: unknown) => (ended.error = e),
    complete: () => (ended.completed = true),
  });
  return { scheduler, diffs, fetcher, out, sub, ended };
}

describe('localOrderBook', () => {
  it('buffers diffs, fetches the snapshot, replays what follows it and emits book states', async () => {
    const { scheduler, diffs, fetcher, out } = setup();
    diffs.next(diff(99, 100, [['1', '1']]));
    diffs.next(diff(101, 101, [['3', '1']]));
    expect(fetcher.calls).toHaveLength(0);
    scheduler.flush();
    expect(fetcher.calls).toHaveLength(1);
    diffs.next(diff(102, 102, [], [['5', '2']]));
    fetcher.calls[0]?.resolve({ lastUpdateId: '100', bids: [['2', '1']], asks: [['6', '1']] });
    await settle();
    expect(out).toEqual([{ kind: 'book', lastUpdateId: '102', eventTime: 1102, bestBid: ['3', '1'], bestAsk: ['5', '2'], bids: [['3', '1'], ['2', '1']], asks: [['5', '2'], ['6', '1']] }]);
    diffs.next(diff(103, 103, [['3', '0']]));
    expect(out.at(-1)).toMatchObject({ kind: 'book', lastUpdateId: '103', bestBid: ['2', '1'] });
    // Stale events emit nothing.
    diffs.next(diff(103, 103));
    expect(out).toHaveLength(2);
  });

  it('a gap emits a resync with its reason and refetches at once; the book comes back', async () => {
    const { scheduler, diffs, fetcher, out } = setup();
    scheduler.flush();
    fetcher.calls[0]?.resolve({ lastUpdateId: 10, bids: [], asks: [] });
    await settle();
    expect(out).toEqual([{ kind: 'book', lastUpdateId: '10', eventTime: undefined, bestBid: undefined, bestAsk: undefined, bids: [], asks: [] }]);
    diffs.next(diff(11, 11));
    diffs.next(diff(13, 14, [['7', '1']]));
    expect(out.at(-1)).toEqual({ kind: 'resync', reason: 'gap in the diff stream: expected U = 12 (previous u + 1), got U = 13' });
    scheduler.flush();
    expect(fetcher.calls).toHaveLength(2);
    fetcher.calls[1]?.resolve({ lastUpdateId: 12, bids: [['8', '1']], asks: [] });
    await settle();
    expect(out.at(-1)).toMatchObject({ kind: 'book', lastUpdateId: '14', bids: [['8', '1'], ['7', '1']] });
  });

  it('a snapshot stale again right after a resync is refetched only after retryDelayMs', async () => {
    const { scheduler, diffs, fetcher, out } = setup();
    diffs.next(diff(50, 50));
    scheduler.flush();
    fetcher.calls[0]?.resolve({ lastUpdateId: 40, bids: [], asks: [] });
    await settle();
    expect(out).toEqual([{ kind: 'resync', reason: 'snapshot too old for the stream: lastUpdateId 40, first event after it has U = 50 > 41' }]);
    scheduler.flush();
    fetcher.calls[1]?.resolve({ lastUpdateId: 45, bids: [], asks: [] });
    await settle();
    expect(out).toHaveLength(2);
    scheduler.maxFrames = 499;
    scheduler.flush();
    expect(fetcher.calls).toHaveLength(2);
    scheduler.maxFrames = Infinity;
    scheduler.flush();
    fetcher.calls[2]?.resolve({ lastUpdateId: 49, bids: [], asks: [] });
    await settle();
    expect(out.at(-1)).toMatchObject({ kind: 'book', lastUpdateId: '50' });
  });

  it('a failed fetch is reported and retried after retryDelayMs, with the buffer kept', async () => {
    const { scheduler, diffs, fetcher, out } = setup();
    scheduler.flush();
    diffs.next(diff(5, 6, [['1', '1']]));
    fetcher.calls[0]?.reject(new Error('HTTP 503'));
    await settle();
    expect(out).toEqual([{ kind: 'resync', reason: 'snapshot fetch failed: HTTP 503' }]);
    scheduler.maxFrames = 499;
    scheduler.flush();
    expect(fetcher.calls).toHaveLength(1);
    scheduler.maxFrames = Infinity;
    scheduler.flush();
    expect(fetcher.calls).toHaveLength(2);
    fetcher.calls[1]?.resolve({ lastUpdateId: 5, bids: [], asks: [] });
    await settle();
    expect(out.at(-1)).toMatchObject({ kind: 'book', lastUpdateId: '6', bestBid: ['1', '1'] });
  });

  it('a snapshot the book cannot read counts as a failed fetch', async () => {
    const { scheduler, fetcher, out } = setup();
    scheduler.flush();
    fetcher.calls[0]?.resolve({ lastUpdateId: 'soon', bids: [], asks: [] });
    await settle();
    expect(out).toEqual([{ kind: 'resync', reason: 'snapshot fetch failed: lastUpdateId: expected an integer, got soon' }]);
  });

  it('a fetch overtaken by a newer resync is ignored when it lands', async () => {
    const { scheduler, diffs, fetcher, out } = setup({ maxBuffer: 1 });
    scheduler.flush();
    diffs.next(diff(1, 1));
    diffs.next(diff(2, 2));
    expect(out).toEqual([{ kind: 'resync', reason: 'more than 1 diff events buffered while waiting for the snapshot: buffer cleared' }]);
    scheduler.flush();
    expect(fetcher.calls).toHaveLength(2);
    fetcher.calls[0]?.resolve({ lastUpdateId: 0, bids: [], asks: [] });
    await settle();
    expect(out).toHaveLength(1);
    fetcher.calls[1]?.resolve({ lastUpdateId: 1, bids: [], asks: [] });
    await settle();
    expect(out.at(-1)).toMatchObject({ kind: 'book', lastUpdateId: '2' });
  });

  it('resync$ drops the book and refetches at once (a reconnect lost diffs a quiet stream would not reveal)', async () => {
    const resync$ = new Subject<string>();
    const { scheduler, diffs, fetcher, out } = setup({ resync$ });
    scheduler.flush();
    fetcher.calls[0]?.resolve({ lastUpdateId: 10, bids: [['1', '1']], asks: [] });
    await settle();
    resync$.next('reconnected after a gap');
    expect(out.at(-1)).toEqual({ kind: 'resync', reason: 'reconnected after a gap' });
    diffs.next(diff(30, 31, [['2', '1']]));
    scheduler.flush();
    fetcher.calls[1]?.resolve({ lastUpdateId: 29, bids: [], asks: [] });
    await settle();
    expect(out.at(-1)).toMatchObject({ kind: 'book', lastUpdateId: '31', bids: [['2', '1']] });
  });

  it('unsubscribing cancels a pending retry; source errors and completion pass through', async () => {
    const { scheduler, fetcher, sub } = setup();
    scheduler.flush();
    fetcher.calls[0]?.reject(new Error('down'));
    await settle();
    sub.unsubscribe();
    scheduler.flush();
    expect(fetcher.calls).toHaveLength(1);

    const s2 = setup();
    s2.diffs.complete();
    expect(s2.ended).toEqual({ completed: true });
    const s3 = setup();
    s3.diffs.error(new Error('socket closed'));
    expect(s3.ended).toEqual({ completed: false, error: new Error('socket closed') });
  });
});
