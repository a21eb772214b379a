/**
 * Diff depth from the real matching engine (protocol notes 4, local-book rules): one operation
 * that changes several levels (a taker walking the asks and resting) must give `U`/`u` that chain
 * and meet the REST `lastUpdateId`, so a client following the notes' algorithm keeps a book equal
 * to the REST one. Real sandbox on 127.0.0.1, VirtualClock driving the 100 ms pushes.
 */
import { describe, expect, it } from 'vitest';
import type { NewOrderRequest, SpotEngine } from '../src/core/matching/index.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { TestClient } from '../src/sandbox/streams/testing/ws-client.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const T0 = Date.parse('2024-03-13T10:00:00Z');

const defer = closeAfterEach();

type Level = [string, string];
interface Diff {
  U: number;
  u: number;
  b: Level[];
  a: Level[];
}

describe('diff depth from the engine (notes 4)', () => {
  it('an operation changing several levels chains U/u and matches the REST lastUpdateId', async () => {
    const clock = new VirtualClock(T0);
    const s = await startSandbox({ clock });
    defer(() => s.close());
    const engine = s.services.engine as SpotEngine;
    const maker = s.accounts.getKey(s.apiKey)?.accountId ?? '';
    const taker = s.accounts.createAccount({ email: 'taker@example.com', createdAt: T0 }).id;
    s.services.balances?.credit(taker, 'PHP', '1000000');
    const place = (account: string, req: Omit<NewOrderRequest, 'symbol'>) => {
      const r = engine.placeOrder(account, { symbol: 'BTCPHP', ...req }, s.clock.now());
      if (!r.ok) throw new Error(r.msg);
    };
    const rest = async () => (await (await fetch(`${s.baseUrl}/openapi/quote/v1/depth?symbol=BTCPHP`)).json()) as { lastUpdateId: number; bids: Level[]; asks: Level[] };

    const c = await TestClient.open(`${s.wsUrl}/openapi/quote/stream?streams=btcphp@depth@100ms`);
    defer(() => c.close());
    place(maker, { side: 'SELL', type: 'LIMIT', quantity: '0.001', price: '3000000' });
    place(maker, { side: 'SELL', type: 'LIMIT', quantity: '0.001', price: '3100000' });
    const snapshot = await rest();
    await clock.advance(100);
    // Takes both asks and rests the remainder as a bid: three levels in one operation.
    place(taker, { side: 'BUY', type: 'LIMIT', quantity: '0.003', price: '3100000' });
    await clock.advance(100);
    place(maker, { side: 'SELL', type: 'LIMIT', quantity: '0.002', price: '3200000' });
    await clock.advance(100);
    const events = [await c.next(), await c.next(), await c.next()].map((f) => f.json.data as unknown as Diff);

    const bids = new Map(snapshot.bids);
    const asks = new Map(snapshot.asks);
    let last = snapshot.lastUpdateId;
    let started = false;
    for (const ev of events) {
      if (ev.u <= last) continue;
      if (!started) expect(ev.U <= last + 1 && last + 1 <= ev.u).toBe(true);
      else expect(ev.U).toBe(last + 1);
      started = true;
      for (const [side, levels] of [
        [bids, ev.b],
        [asks, ev.a],
      ] as const) {
        for (const [p, q] of levels) {
          if (Number(q) === 0) side.delete(p);
          else side.set(p, q);
        }
      }
      last = ev.u;
    }
    const final = await rest();
    expect(last).toBe(final.lastUpdateId);
    expect([...bids]).toEqual(final.bids);
    expect([...asks]).toEqual(final.asks);
  });
});
