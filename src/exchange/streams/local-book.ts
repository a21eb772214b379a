/**
 * The local order book as a stream (issue 20 deliverable 2; protocol notes 4, "Local book"):
 * an RxJS operator from decoded `depthUpdate` events to book states and resync notices.
 *
 *   diffs$.pipe(localOrderBook(() => client.market.depth({ symbol: 'BTCPHP', limit: 1000 })))
 *
 * On subscription it subscribes to the diffs first (they buffer), then fetches the snapshot, so
 * the snapshot always falls inside the buffered stream, as the notes' procedure wants. The rules
 * are depth-sync.ts's; this file only does the I/O around them: a resync refetches at once (a
 * second one before the book was usable again waits `retryDelayMs`); a failed fetch is reported
 * and retried after `retryDelayMs` on the injected scheduler (tests use virtual time). A fetch overtaken by a newer resync is ignored when it lands. `resync$` lets the
 * caller force a resync (the WebSocket client's reconnects). Source errors and completion pass
 * through; unsubscribing cancels a pending retry.
 */
import { Observable, asyncScheduler, defer, switchMap, timer, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { DepthSync, type SyncOutcome } from './depth-sync.ts';
import type { DepthUpdateEvent } from './market-payload-types.ts';
import type { DepthSnapshotLike } from './order-book.ts';
import type { Level } from './wire-fields.ts';

export interface BookState {
  readonly kind: 'book';
  /** The last change the book holds: the snapshot's id, then each applied diff's `u`. */
  readonly lastUpdateId: string;
  /** `E` of the last diff applied; undefined for a book straight from its snapshot. */
  readonly eventTime: number | undefined;
  readonly bestBid: Level | undefined;
  readonly bestAsk: Level | undefined;
  /** The best `depth` levels of each side, best first. */
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
}

export interface BookResync {
  readonly kind: 'resync';
  /** Why the book was dropped (a gap, a stale snapshot, a failed fetch). */
  readonly reason: string;
}

export type LocalBookUpdate = BookState | BookResync;

export interface LocalBookOptions {
  /** Levels per side in each state. Default 20. Levels beyond the snapshot's limit stay unseen. */
  depth?: number;
  /** Wait before refetching a snapshot whose fetch failed, or after a resync that followed a resync. Default 1000 ms. */
  retryDelayMs?: number;
  /** Most diff events buffered while a snapshot is awaited (depth-sync.ts). */
  maxBuffer?: number;
  /**
   * Reasons to drop the book and refetch at once, such as the socket's reconnects: diffs sent
   * while it was down are lost, and on a quiet market no gap would show until the next event.
   */
  resync$?: Observable<string>;
  scheduler?: SchedulerLike;
}

export function localOrderBook(fetchSnapshot: () => Promise<DepthSnapshotLike>, options: LocalBookOptions = {}): OperatorFunction<DepthUpdateEvent, LocalBookUpdate> {
  const depth = options.depth ?? 20;
  const retryDelayMs = options.retryDelayMs ?? 1000;
  const scheduler = options.scheduler ?? asyncScheduler;
  return (diffs) =>
    new Observable<LocalBookUpdate>((subscriber) => {
      const sync = new DepthSync(options.maxBuffer === undefined ? {} : { maxBuffer: options.maxBuffer });
      let fetch: Subscription | undefined;
      let generation = 0;
      /** False from a resync until a book is usable again: a second resync in a row waits. */
      let usable = true;

      const state = (): BookState => {
        const book = sync.current;
        if (!book) throw new Error('localOrderBook: no book to report');
        return {
          kind: 'book',
          lastUpdateId: String(book.lastUpdateId),
          eventTime: sync.lastEventTime,
          bestBid: book.bestBid(),
          bestAsk: book.bestAsk(),
          bids: book.bids.top(depth),
          asks: book.asks.top(depth),
        };
      };

      const requestSnapshot = (delayMs: number): void => {
        const mine = ++generation;
        fetch?.unsubscribe();
        fetch = timer(delayMs, scheduler)
          .pipe(switchMap(() => defer(fetchSnapshot)))
          .subscribe({
            next: (snapshot) => {
              if (mine !== generation) return;
              let outcome: SyncOutcome;
              try {
                outcome = sync.onSnapshot(snapshot);
              } catch (err) {
                // A snapshot the book cannot read (a bad id or level): as good as a failed fetch.
                failed(mine, err);
                return;
              }
              handle(outcome);
            },
            error: (err: unknown) => failed(mine, err),
          });
      };

      const failed = (mine: number, err: unknown): void => {
        if (mine !== generation) return;
        // The book was never replaced (OrderBook throws before it is kept): the buffer still
        // holds every event since the last sync, for the next snapshot.
        subscriber.next({ kind: 'resync', reason: `snapshot fetch failed: ${err instanceof Error ? err.message : String(err)}` });
        requestSnapshot(retryDelayMs);
      };

      const handle = (outcome: SyncOutcome): void => {
        switch (outcome.kind) {
          case 'applied':
          case 'synced':
            usable = true;
            subscriber.next(state());
            return;
          case 'resync':
            subscriber.next({ kind: 'resync', reason: outcome.reason });
            // A snapshot that is stale again (a REST depth lagging the stream) is not asked for
            // again at once: back-to-back refetches would only spend the IP's weight.
            requestSnapshot(usable ? 0 : retryDelayMs);
            usable = false;
            return;
          default:
            return;
        }
      };

      const requested = options.resync$?.subscribe((reason) => {
        sync.reset();
        subscriber.next({ kind: 'resync', reason });
        requestSnapshot(0);
      });
      const source = diffs.subscribe({
        next: (ev) => handle(sync.onEvent(ev)),
        error: (err: unknown) => subscriber.error(err),
        complete: () => subscriber.complete(),
      });
      requestSnapshot(0);
      return () => {
        generation++;
        source.unsubscribe();
        requested?.unsubscribe();
        fetch?.unsubscribe();
      };
    });
}
