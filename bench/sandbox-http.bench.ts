/**
 * Sandbox HTTP throughput on loopback (issue "Sandbox exchange"): signed order requests per second,
 * sequential, one keep-alive connection, alternating a resting LIMIT newOrder (ACK) and its
 * cancel so the book never grows. Three figures from the same run:
 * - baseline: undici against a bare `node:http` server answering `{}` (what HTTP alone costs);
 * - undici against the sandbox with requests signed by hand (the sandbox's own cost per request:
 *   routing, rate limits, HMAC check, parameters, engine, user-stream events, serialisation);
 * - the project's client against the sandbox (adds its checks, weight budget and signing).
 * In-process matching-engine orders/s are measured by bench/matching.bench.ts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { hmacSha256Hex } from '../src/exchange/signing/hmac.ts';
import { marketPlugin } from '../src/sandbox/routes/market.ts';
import { spotPlugin } from '../src/sandbox/routes/spot/index.ts';
import { builtInPlugins, startSandbox } from '../src/sandbox/server.ts';
import { measure, row } from './harness.ts';

/** The trading plugins, unless server.ts already lists them as built-in (registering twice throws). */
const tradingPlugins = () => [spotPlugin(), marketPlugin()].filter((p) => !builtInPlugins().some((b) => b.name === p.name));

const N = 4000;
const HUGE = { limit: 1e12, windowMs: 60_000 };
const ORDER = 'symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=3000000&newOrderRespType=ACK';

async function bareServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function send(pool: Pool, method: 'POST' | 'DELETE', path: string, headers: Record<string, string>): Promise<void> {
  const r = await pool.request({ method, path, headers });
  const text = await r.body.text();
  if (r.statusCode !== 200) throw new Error(`HTTP ${r.statusCode}: ${text}`);
}

export async function run(): Promise<string[]> {
  const bare = await bareServer();
  const s = await startSandbox({ plugins: tradingPlugins(), config: { rateLimits: { pools: { IP: HUGE, UID: HUGE, ORDERS: HUGE } } } });
  const headers = { 'X-SERVICE-APIKEY': s.apiKey };
  const sign = (q: string) => `${q}&signature=${hmacSha256Hex(s.apiSecret, q)}`;
  const barePool = new Pool(bare.url, { connections: 1 });
  const sandboxPool = new Pool(s.baseUrl, { connections: 1 });
  const handle = createClient({
    baseUrl: s.baseUrl,
    exchange: parseConfig({ exchange: { pools: { IP: HUGE, UID: HUGE, ORDERS: HUGE }, retry: { maxAttempts: 1 } } }).exchange,
    secrets: { apiKey: s.apiKey, apiSecret: s.apiSecret },
  });
  try {
    const baseline = await measure('undici -> bare node:http answering {}', N, (i) =>
      send(barePool, i % 2 === 0 ? 'POST' : 'DELETE', `/openapi/v1/order?${ORDER}&newClientOrderId=b${i}&timestamp=${Date.now()}&signature=0`, headers),
    );
    const raw = await measure('undici -> sandbox, hand-signed newOrder / cancel', N, (i) =>
      i % 2 === 0
        ? send(sandboxPool, 'POST', `/openapi/v1/order?${sign(`${ORDER}&newClientOrderId=r${i}&timestamp=${Date.now()}`)}`, headers)
        : send(sandboxPool, 'DELETE', `/openapi/v1/order?${sign(`origClientOrderId=r${i - 1}&timestamp=${Date.now()}`)}`, headers),
    );
    const c = handle.client;
    const viaClient = await measure('project client -> sandbox, newOrder / cancel', N, (i) =>
      i % 2 === 0
        ? c.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '3000000', newOrderRespType: 'ACK', newClientOrderId: `c${i}` })
        : c.spot.cancelOrder({ origClientOrderId: `c${i - 1}` }),
    );
    const ratio = (m: typeof raw) => (baseline.opsPerSec / m.opsPerSec).toFixed(1);
    return [
      'Sandbox HTTP: sequential signed order requests on loopback, one keep-alive connection',
      row(baseline),
      row(raw, baseline),
      row(viaClient, baseline),
      `  sandbox serves ${Math.round(raw.opsPerSec).toLocaleString('en-US')} signed order requests/s (${ratio(raw)}x slower than a bare {} server); ` +
        `${Math.round(viaClient.opsPerSec / 2).toLocaleString('en-US')} place+cancel round trips/s through the project client`,
    ];
  } finally {
    await handle.close();
    await barePool.close();
    await sandboxPool.close();
    await s.close();
    await bare.close();
  }
}
