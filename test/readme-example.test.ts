/**
 * The client example of docs/guides/client.md (the README's "The client" until the docs were
 * split), run against a local server; the page is checked to still show the calls run here.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, parseConfig, UnknownOutcomeError } from 'halyard';
import { startCaptureServer, type CaptureServer } from './support/capture-server.ts';

let server: CaptureServer;
beforeAll(async () => {
  server = await startCaptureServer((req) => {
    if (req.path === '/openapi/v1/time') return { body: { serverTime: Date.now() } };
    if (req.path === '/openapi/quote/v1/depth') return { body: { lastUpdateId: 1, bids: [['3425000', '1']], asks: [['3426000', '2']] } };
    if (req.method === 'POST') return { status: 503, body: 'upstream timeout' };
    return { body: { symbol: 'BTCPHP', orderId: 1375445991893797391n.toString(), clientOrderId: 'my-run-0001', price: '3425000', origQty: '0.001', executedQty: '0', cummulativeQuoteQty: '0', status: 'NEW', timeInForce: 'GTC', type: 'LIMIT', side: 'BUY', stopPrice: '0', origQuoteOrderQty: '0', time: 1, updateTime: 1, isWorking: true } };
  });
});
afterAll(() => server.close());

it('runs as written: a 5xx on the order is resolved by querying, not resending', async () => {
  const { client, close } = createClient({
    baseUrl: server.baseUrl,
    exchange: parseConfig({}).exchange,
    secrets: { apiKey: 'k', apiSecret: 's' },
  });
  const book = await client.market.depth({ symbol: 'BTCPHP', limit: 5 });
  expect(book.bids[0]).toEqual(['3425000', '1']);
  let found: unknown;
  let clientId: string | undefined;
  try {
    await client.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '3425000' });
  } catch (e) {
    if (!(e instanceof UnknownOutcomeError)) throw e;
    clientId = e.clientId;
    found = await client.reconcileOrder(e);
  }
  // The order went out with a generated client id, and reconcileOrder looked it up by that id.
  const post = server.requests.filter((r) => r.method === 'POST');
  expect(post).toHaveLength(1);
  expect(new URLSearchParams(post[0]!.rawQuery).get('newClientOrderId')).toBe(clientId);
  const query = server.requests.find((r) => r.method === 'GET' && r.path === '/openapi/v1/order')!;
  expect(new URLSearchParams(query.rawQuery).get('origClientOrderId')).toBe(clientId);
  expect(found).toMatchObject({ status: 'found', order: { orderId: '1375445991893797391', status: 'NEW' } });
  await close();
});

it('is the example docs/guides/client.md shows', () => {
  const page = readFileSync(new URL('../docs/guides/client.md', import.meta.url), 'utf8');
  const block = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string).find((b) => b.includes('createClient('));
  expect(block).toBeDefined();
  for (const call of ["import { createClient, parseConfig, UnknownOutcomeError } from 'halyard';", 'exchange: parseConfig({}).exchange', "client.market.depth({ symbol: 'BTCPHP', limit: 5 })", "client.spot.newOrder({", "quantity: '0.001', price: '3425000'", 'e instanceof UnknownOutcomeError', 'await client.reconcileOrder(e)', "found.status === 'found'", 'await close();']) {
    expect(block).toContain(call);
  }
});
