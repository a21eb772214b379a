/**
 * The collector against a sandbox on 127.0.0.1 (ephemeral port): the venue's orders (history and
 * open, paged), trades and balances over the signed REST API, ids as the venue's decimal strings;
 * the journal's rows, a fill applied twice listed twice though the fill store keeps one row.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../app/create-client.ts';
import { parseConfig } from '../../config/load.ts';
import { openJournal } from '../../journal/journal.ts';
import { startSandbox } from '../../sandbox/server.ts';
import { VirtualClock } from '../../time/virtual-clock.ts';
import { checkRun } from '../check-run.ts';
import { collectJournal, collectVenue, strategyFillsFromLog } from './index.ts';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});
const T0 = Date.parse('2024-03-13T10:00:00Z');
const exchange = parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange;

describe('chaos collector', () => {
  it('reads every venue order (paged), trade and balance, ids as strings; the journal rows; a doubled fill shows twice', async () => {
    const s = await startSandbox({ clock: new VirtualClock(T0) });
    closers.push(() => s.close());
    const own = createClient({ baseUrl: s.baseUrl, exchange, secrets: { apiKey: s.apiKey, apiSecret: s.apiSecret } });
    closers.push(() => own.close());
    const account = s.accounts.createAccount({ email: 'taker@example.com', createdAt: s.clock.now() });
    const key = s.accounts.createKey({ accountId: account.id, createdAt: s.clock.now() });
    s.services.balances?.credit(account.id, 'PHP', '10000000');
    const taker = createClient({ baseUrl: s.baseUrl, exchange, secrets: { apiKey: key.apiKey, apiSecret: key.secret } });
    closers.push(() => taker.close());

    const client = own.client;
    const placed: { orderId: string }[] = [];
    for (let i = 0; i < 5; i++) {
      placed.push(await client.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: String(3_000_000 + i * 10_000), newClientOrderId: `c-${i}` }));
    }
    await client.spot.cancelOrder({ origClientOrderId: 'c-4' });
    await taker.client.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.0015', price: '3010000' });

    const venue = await collectVenue(client, ['BTCPHP'], { pageSize: 2 });
    expect(venue.orders.map((o) => [o.clientOrderId, o.status]).sort()).toEqual([
      ['c-0', 'FILLED'],
      ['c-1', 'PARTIALLY_FILLED'],
      ['c-2', 'NEW'],
      ['c-3', 'NEW'],
      ['c-4', 'CANCELED'],
    ]);
    expect(venue.orders.map((o) => o.orderId).sort()).toEqual(placed.map((p) => p.orderId).sort());
    for (const o of venue.orders) expect(typeof o.orderId).toBe('string');
    expect(venue.trades).toHaveLength(2);
    for (const t of venue.trades) expect([typeof t.id, typeof t.orderId, typeof t.qty]).toEqual(['string', 'string', 'string']);
    expect(venue.trades.map((t) => t.qty).sort()).toEqual(['0.0005', '0.001']);
    const btc = venue.balances.find((b) => b.asset === 'BTC');
    expect(typeof btc?.free).toBe('string');

    // The journal as a bot would have left it: requests, orders, one fill applied twice, balances.
    const dir = mkdtempSync(join(tmpdir(), 'halyard-collect-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    const j = openJournal(join(dir, 'j.sqlite'));
    closers.push(() => j.close());
    j.liveRuns.begin({ id: 'r1', kind: 'sandbox', strategies: [{ name: 's' }], config: {}, startedAt: T0 });
    const trade0 = venue.trades.find((t) => t.orderId === placed[0]?.orderId);
    for (const [i, p] of placed.entries()) {
      j.requests.record({ runId: 'r1', clientOrderId: `c-${i}`, kind: 'place', symbol: 'BTCPHP', request: {}, sentAt: T0 });
      j.orders.insert({ clientOrderId: `c-${i}`, runId: 'r1', symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', qty: '0.001', status: 'NEW', exchangeOrderId: p.orderId, createdAt: T0 + i });
    }
    const fill = { symbol: 'BTCPHP', tradeId: trade0?.id ?? '?', clientOrderId: 'c-0', exchangeOrderId: placed[0]?.orderId ?? '?', side: 'SELL' as const, price: '3000000', qty: '0.001', quoteQty: '3000', commission: '0', commissionAsset: 'PHP', isMaker: true, time: T0 };
    for (let i = 0; i < 2; i++) {
      j.fills.insert(fill);
      j.orders.update('c-0', { status: 'FILLED', updatedAt: T0 + 10 }, `fill ${fill.tradeId}`);
    }
    j.balances.record({ runId: 'r1', takenAt: T0, source: 'rest', balances: [{ asset: 'BTC', free: '1', locked: '0' }, { asset: 'PHP', free: '5', locked: '0' }] });
    j.balances.record({ runId: 'r1', takenAt: T0 + 1, source: 'stream', balances: [{ asset: 'PHP', free: '6', locked: '1' }] });
    j.streamHealth.record({ runId: 'r1', time: T0, stream: 'user', to: 'LIVE' });

    const journal = collectJournal(j);
    expect(journal.requests.map((r) => r.clientOrderId)).toEqual(['c-0', 'c-1', 'c-2', 'c-3', 'c-4']);
    expect(journal.orders.find((o) => o.clientOrderId === 'c-0')).toEqual({ clientOrderId: 'c-0', exchangeOrderId: placed[0]?.orderId, status: 'FILLED' });
    expect(journal.fills).toHaveLength(2);
    expect(journal.balances).toEqual([{ asset: 'BTC', free: '1', locked: '0' }, { asset: 'PHP', free: '6', locked: '1' }]);
    expect(journal.streamHealth).toEqual([{ time: T0, stream: 'user', to: 'LIVE' }]);

    const log = [JSON.stringify({ level: 30, strategy: 's', clientOrderId: 'c-0', tradeId: trade0?.id, msg: 'fill SELL 0.001 @ 3000000' }), 'not json', '{"msg":"other"}'].join('\n');
    const strategies = strategyFillsFromLog([log], venue.orders);
    expect(strategies).toEqual([{ strategy: 's', fills: [{ orderId: placed[0]?.orderId, tradeId: trade0?.id }] }]);

    // The checks see the doubled write and the fill the journal lacks.
    const report = checkRun({ seed: 'x', start: T0, end: T0 + 1000, venue, journal, strategies, faults: [], outcomes: [], crashes: [] });
    expect(report.fills.doubled).toEqual([expect.objectContaining({ orderId: placed[0]?.orderId, where: 'journal', times: 2 })]);
    expect(report.fills.lostFromJournal.map((f) => f.orderId)).toEqual([placed[1]?.orderId]);
    expect(report.ok).toBe(false);
  });
});
