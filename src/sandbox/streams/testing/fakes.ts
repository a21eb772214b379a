/**
 * Test doubles for the stream server's ports: a book that counts update ids like the engine must
 * (one id per reported change), and an in-memory listen-key registry (spec 4.7: 60 min of life).
 */
import type { ListenKeyRegistry, SandboxEventSink } from '../../contracts.ts';
import type { BookSource, DepthSnapshot, Level } from '../../market-data/types.ts';

type Side = 'bids' | 'asks';

export class FakeBook implements BookSource {
  updateId = 100;
  private readonly books = new Map<string, { bids: Map<string, string>; asks: Map<string, string> }>();

  /** Set absolute levels ("0" removes), bump the id, and report the change to `sink`. */
  change(sink: Pick<SandboxEventSink, 'bookChanged'>, symbol: string, change: { bids?: Level[]; asks?: Level[] }, time = 0): void {
    const b = this.book(symbol);
    for (const side of ['bids', 'asks'] as const) {
      for (const [price, qty] of change[side] ?? []) {
        if (Number(qty) === 0) b[side].delete(price);
        else b[side].set(price, qty);
      }
    }
    this.updateId += 1;
    sink.bookChanged(symbol, { bids: change.bids ?? [], asks: change.asks ?? [], time });
  }

  depth(symbol: string, limit: number): DepthSnapshot {
    const b = this.book(symbol);
    return { lastUpdateId: this.updateId, bids: sorted(b.bids, 'bids').slice(0, limit), asks: sorted(b.asks, 'asks').slice(0, limit) };
  }

  private book(symbol: string) {
    let b = this.books.get(symbol);
    if (!b) this.books.set(symbol, (b = { bids: new Map(), asks: new Map() }));
    return b;
  }
}

function sorted(m: Map<string, string>, side: Side): Level[] {
  const dir = side === 'bids' ? -1 : 1;
  return [...m.entries()].sort((x, y) => (Number(x[0]) - Number(y[0])) * dir);
}

export class FakeListenKeys implements ListenKeyRegistry {
  private readonly keys = new Map<string, { accountId: string; expiresAt: number }>();
  private seq = 0;

  create(accountId: string, now: number): string {
    const key = `lk${++this.seq}${'x'.repeat(20)}`;
    this.keys.set(key, { accountId, expiresAt: now + 3_600_000 });
    return key;
  }

  keepalive(listenKey: string, now: number): boolean {
    const k = this.keys.get(listenKey);
    if (!k || k.expiresAt <= now) return false;
    k.expiresAt = now + 3_600_000;
    return true;
  }

  close(listenKey: string): boolean {
    return this.keys.delete(listenKey);
  }

  accountOf(listenKey: string, now: number): string | undefined {
    const k = this.keys.get(listenKey);
    return k && k.expiresAt > now ? k.accountId : undefined;
  }

  expire(listenKey: string): boolean {
    const k = this.keys.get(listenKey);
    if (k) k.expiresAt = -Infinity;
    return k !== undefined;
  }
}
