/**
 * The engine part's rows (engine-part.ts): open orders are stored one row each and written again
 * only when they changed, so a save with many resting orders costs what changed; the head holds
 * no open order; head + rows restore the same engine.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { harness } from '../../core/matching/test-support.ts';
import { dec, toWire } from '../../core/money/decimal.ts';
import type { SandboxState } from '../http/route-types.ts';
import { persistentPartsOf, type ArchivedRow, type PartsDump } from '../persistence/persistent-parts.ts';
import { persistEngine } from './engine-part.ts';

const log = pino({ level: 'silent' });
const limit = (side: 'BUY' | 'SELL', quantity: string, price: string) => ({ side, type: 'LIMIT', timeInForce: 'GTC', quantity, price }) as const;

/** An engine registered as the sandbox registers it, and a store keeping what its saves wrote. */
function persisted(fund?: Record<string, Record<string, string>>) {
  const h = harness(fund === undefined ? {} : { fund });
  const state = { services: {}, clock: { now: () => 1000 }, log } as unknown as Pick<SandboxState, 'services' | 'clock' | 'log'>;
  persistEngine(state, h.engine);
  const parts = persistentPartsOf(state.services);
  const rows = new Map<number, ArchivedRow>();
  let head: Record<string, unknown> = {};
  const save = (): PartsDump => {
    const d = parts.dump();
    head = d.parts;
    for (const r of d.drop) rows.delete(r.key);
    for (const r of d.put) rows.set(r.key, r);
    parts.commit(d);
    return d;
  };
  return { h, parts, save, stored: () => ({ head, rows: [...rows.values()] }) };
}

const kinds = (d: PartsDump) => d.put.map((r) => (r.body as { kind: string }).kind).sort();

describe('engine part', () => {
  it('writes an open order once, again when it changes, and drops it when it closes', () => {
    const { h, save } = persisted();
    const a = h.place('alice', limit('BUY', '1', '100'));
    h.place('alice', limit('BUY', '1', '99'));
    const first = save();
    expect(kinds(first)).toEqual(['open', 'open']);
    // The head names the resting ids (book priority) but holds no open order.
    const head = first.parts['engine'] as { symbols: { bids: string[]; accounts: unknown[] }[] };
    expect(head.symbols[0]).toMatchObject({ bids: [a.order.orderId, expect.any(String)], accounts: [] });
    expect(save().put).toEqual([]);

    // A partial fill: that order's row again, and the trade as each side keeps it (bob's IOC closes).
    h.place('bob', { side: 'SELL', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.4', price: '100' });
    const filled = save();
    expect(kinds(filled)).toEqual(['open', 'order', 'trade', 'trade']);
    expect(filled.put.find((r) => (r.body as { kind: string }).kind === 'open')?.body).toMatchObject({ order: { orderId: a.order.orderId, executedQty: '0.4', status: 'PARTIALLY_FILLED' } });
    expect(filled.drop).toEqual([]);

    h.engine.cancelOrder('alice', 'BTCPHP', { orderId: a.order.orderId }, 2000);
    const canceled = save();
    expect(kinds(canceled)).toEqual(['order']);
    expect(canceled.drop.map((r) => r.key % 4)).toEqual([3]);
  });

  it('restores from the head and the rows the same engine', () => {
    const { h, save, stored } = persisted();
    h.place('alice', limit('BUY', '1', '100'));
    h.place('alice', limit('BUY', '2', '99'));
    save();
    h.place('bob', { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '1.5', price: '99' });
    h.place('alice', limit('SELL', '0.5', '120'));
    save();
    const { head, rows } = JSON.parse(JSON.stringify(stored())) as ReturnType<typeof stored>;

    // A restart: balances as totals (all free), a fresh engine, the stored head and rows.
    const fund: Record<string, Record<string, string>> = {};
    for (const account of ['alice', 'bob']) {
      fund[account] = Object.fromEntries(h.balances.all(account).map((x) => [x.asset, toWire(dec(x.free).plus(x.locked))]));
    }
    const again = persisted(fund);
    again.parts.restore(head, rows);
    expect(again.h.engine.exportState()).toEqual(h.engine.exportState());
    expect(again.h.balances.all('alice')).toEqual(h.balances.all('alice'));
    // Nothing to write again right after the restore.
    expect(again.save().put).toEqual([]);
  });
});
