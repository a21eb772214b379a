/**
 * The synchronisation rules of a local book (protocol notes 4, "Local book"), as a pure state
 * machine: diff events and snapshots in, outcomes out. No I/O: local-book.ts fetches the snapshot
 * and turns the outcomes into a stream of book states.
 *
 *   buffer the diff stream; fetch the REST snapshot; drop events with u <= lastUpdateId; the
 *   first applied event has U <= lastUpdateId+1 <= u; then each U = previous u + 1, else resync
 *   (refetch the snapshot, buffering again).
 *
 * Ids are compared as bigints (they are lossless decimal strings). The event that reveals a gap
 * is kept as the first of the new buffer: it is a true change, and the next snapshot may predate
 * it. A buffer that grows past `maxBuffer` while the snapshot is awaited is cleared with a resync
 * of its own (memory stays bounded when the snapshot never comes).
 */
import type { DepthUpdateEvent } from './market-payload-types.ts';
import { OrderBook, type DepthSnapshotLike } from './order-book.ts';

export type SyncOutcome =
  /** Kept until the snapshot comes. */
  | { readonly kind: 'buffered' }
  /** Older than the book (`u <= lastUpdateId`): dropped. */
  | { readonly kind: 'stale' }
  /** Applied: the book moved to the event's `u`. */
  | { readonly kind: 'applied' }
  /** A snapshot was taken and the buffered events after it applied: the book is usable. */
  | { readonly kind: 'synced'; readonly replayed: number }
  /** The book is discarded: fetch a new snapshot (events are buffered meanwhile). */
  | { readonly kind: 'resync'; readonly reason: string };

const BUFFERED: SyncOutcome = { kind: 'buffered' };
const STALE: SyncOutcome = { kind: 'stale' };
const APPLIED: SyncOutcome = { kind: 'applied' };

export interface DepthSyncOptions {
  /** Most events kept while waiting for a snapshot. Default 10,000. */
  maxBuffer?: number;
}

export class DepthSync {
  private book: OrderBook | undefined;
  private buffer: DepthUpdateEvent[] = [];
  /** False until the first event after the snapshot is applied (the first-event rule applies). */
  private started = false;
  private readonly maxBuffer: number;
  private eventTime: number | undefined;

  constructor(options: DepthSyncOptions = {}) {
    this.maxBuffer = options.maxBuffer ?? 10_000;
  }

  /** The book while it is in sync, else undefined. */
  get current(): OrderBook | undefined {
    return this.book;
  }

  /** `E` of the last event applied (undefined right after a snapshot). */
  get lastEventTime(): number | undefined {
    return this.eventTime;
  }

  onEvent(ev: DepthUpdateEvent): SyncOutcome {
    if (!this.book) {
      if (this.buffer.length >= this.maxBuffer) {
        this.buffer = [ev];
        return { kind: 'resync', reason: `more than ${String(this.maxBuffer)} diff events buffered while waiting for the snapshot: buffer cleared` };
      }
      this.buffer.push(ev);
      return BUFFERED;
    }
    return this.step(this.book, ev);
  }

  /**
   * A snapshot fetched after the buffering began: the book starts from it and the buffered events
   * are replayed through the same rules. A resync here means the snapshot was too old for the
   * buffer (its first event after the snapshot leaves a gap) or the buffer has a gap itself.
   */
  onSnapshot(snapshot: DepthSnapshotLike): SyncOutcome {
    const book = new OrderBook(snapshot);
    this.book = book;
    this.started = false;
    this.eventTime = undefined;
    const pending = this.buffer;
    this.buffer = [];
    let replayed = 0;
    for (let i = 0; i < pending.length; i++) {
      const outcome = this.step(book, pending[i] as DepthUpdateEvent);
      if (outcome.kind === 'resync') {
        // The gap event is already the new buffer's first; keep the rest after it.
        for (let j = i + 1; j < pending.length; j++) this.buffer.push(pending[j] as DepthUpdateEvent);
        return outcome;
      }
      if (outcome.kind === 'applied') replayed++;
    }
    return { kind: 'synced', replayed };
  }

  /**
   * Drops the book for a reason of the caller's (a reconnect: diffs were lost while the socket was
   * down, and the stream shows no gap until its next event). Events buffer until the next
   * snapshot; any already buffered are kept, the snapshot's replay drops those it covers.
   */
  reset(): void {
    this.book = undefined;
    this.started = false;
  }

  private step(book: OrderBook, ev: DepthUpdateEvent): SyncOutcome {
    const U = BigInt(ev.firstUpdateId);
    const u = BigInt(ev.finalUpdateId);
    const last = book.lastUpdateId;
    if (u <= last) return STALE;
    const expected = last + 1n;
    if (this.started ? U !== expected : U > expected) {
      const reason = this.started
        ? `gap in the diff stream: expected U = ${String(expected)} (previous u + 1), got U = ${ev.firstUpdateId}`
        : `snapshot too old for the stream: lastUpdateId ${String(last)}, first event after it has U = ${ev.firstUpdateId} > ${String(expected)}`;
      this.book = undefined;
      this.started = false;
      this.buffer = [ev];
      return { kind: 'resync', reason };
    }
    book.apply(u, ev.bids, ev.asks);
    this.started = true;
    this.eventTime = ev.eventTime;
    return APPLIED;
  }
}
