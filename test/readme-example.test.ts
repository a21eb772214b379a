/** The README's "Calling an endpoint from code" example, run against a local server. */
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
  let queried: unknown;
  try {
    await client.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '3425000', newClientOrderId: 'my-run-0001' });
  } catch (e) {
    if (!(e instanceof UnknownOutcomeError)) throw e;
    queried = await client.spot.queryOrder({ origClientOrderId: 'my-run-0001' });
  }
  expect(queried).toMatchObject({ clientOrderId: 'my-run-0001', status: 'NEW' });
  expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  await close();
});
