/**
 * Depth streams (protocol notes 4). Partial `<s>@depth<N>[@100ms]`: top-N snapshots, pushed on
 * change every 100 ms (1000 ms for N = 200). Diff `<s>@depth[@100ms]`: `depthUpdate` events with the
 * levels changed since the last push (absolute quantities, "0" removes) every 1000 / 100 ms.
 *
 * Update ids come from the engine's `BookSource`, so they match REST depth `lastUpdateId`: a book
 * change reported by `bookChanged` covers ids (previous id, current id], and consecutive pushes
 * chain `U = previous u + 1` — the local-book rule of notes 4. Contract (see `BookSource`): the
 * engine bumps its id before reporting a change, and passes the change's own id when it reports
 * several changes after counting them all (the real engine does); if it did neither, the stream
 * still chains (one id per change) but no longer matches REST.
 */
import { dec, toWire } from '../../core/money/decimal.ts';
import type { Clock } from '../../ports/clock.ts';
import type { BookSource, Level } from '../market-data/types.ts';
import { stringifyWire } from '../wire-json.ts';
import type { SubscriptionIndex } from './connection.ts';
import { depthPayload } from './payloads.ts';

type Change = { bids: [string, string][]; asks: [string, string][]; updateId?: number | bigint | string | undefined };

interface PendingDiff {
  U: bigint;
  u: bigint;
  bids: Map<string, string>;
  asks: Map<string, string>;
}

export class DepthFeed {
  private readonly lastIds = new Map<string, bigint>();
  private readonly pending = { fast: new Map<string, PendingDiff>(), slow: new Map<string, PendingDiff>() };

  constructor(
    private readonly index: SubscriptionIndex,
    private readonly clock: Clock,
    private readonly book: BookSource,
  ) {}

  /** Start tracking ids of `symbol` so its first diff starts right after the current id. */
  watch(symbol: string): void {
    if (!this.lastIds.has(symbol)) this.lastIds.set(symbol, this.currentId(symbol));
  }

  bookChanged(symbol: string, change: Change): void {
    const prev = this.lastIds.get(symbol);
    // The change's own id when the engine gives it: the engine reports the changes of one
    // operation after counting them all, so the book's current id is already the last one's.
    const own = change.updateId === undefined ? undefined : BigInt(change.updateId);
    const U = prev === undefined ? (own ?? this.currentId(symbol)) : prev + 1n;
    const cur = own ?? this.currentId(symbol);
    const u = cur < U ? U : cur;
    this.lastIds.set(symbol, u);
    const lower = symbol.toLowerCase();
    for (const speed of ['fast', 'slow'] as const) {
      if (!this.index.has(`${lower}@depth${speed === 'fast' ? '@100ms' : ''}`)) continue;
      const map = this.pending[speed];
      let p = map.get(symbol);
      if (!p) map.set(symbol, (p = { U, u, bids: new Map(), asks: new Map() }));
      p.u = u;
      for (const [price, qty] of change.bids) p.bids.set(toWire(dec(price)), toWire(dec(qty)));
      for (const [price, qty] of change.asks) p.asks.set(toWire(dec(price)), toWire(dec(qty)));
    }
  }

  /** Push pending diffs of one cadence. */
  flushDiffs(speed: 'fast' | 'slow'): void {
    const map = this.pending[speed];
    for (const [symbol, p] of map) {
      const name = `${symbol.toLowerCase()}@depth${speed === 'fast' ? '@100ms' : ''}`;
      const b = sortLevels(p.bids, true);
      const a = sortLevels(p.asks, false);
      this.index.broadcast(name, { e: 'depthUpdate', E: this.clock.now(), s: symbol, U: p.U, u: p.u, b, a });
    }
    map.clear();
  }

  /** Push changed top-N snapshots: N = 200 on the slow cadence, the others on the fast one. */
  pushSnapshots(speed: 'fast' | 'slow'): void {
    for (const [name, subs] of this.index.entries()) {
      const first = subs.values().next().value;
      const stream = first?.stream;
      if (stream?.kind !== 'depth' || (stream.levels === 200) !== (speed === 'slow')) continue;
      const id = String(this.currentId(stream.symbol));
      if ([...subs.values()].every((s) => s.lastSig === id)) continue;
      const snap = this.book.depth(stream.symbol, stream.levels);
      const text = stringifyWire(depthPayload(stream.symbol, snap, this.clock.now()));
      for (const [conn, sub] of subs) {
        if (sub.lastSig === id) continue;
        sub.lastSig = id;
        conn.sendEvent(name, text);
      }
    }
  }

  private currentId(symbol: string): bigint {
    const raw = this.book.lastUpdateId ? this.book.lastUpdateId(symbol) : this.book.depth(symbol, 1).lastUpdateId;
    return BigInt(raw);
  }
}

function sortLevels(m: Map<string, string>, descending: boolean): Level[] {
  const levels = [...m.entries()] as Level[];
  levels.sort((x, y) => dec(x[0]).comparedTo(dec(y[0])) * (descending ? -1 : 1));
  return levels;
}
