/**
 * What durable answers cost (docs/guides/sandbox.md "What survives a restart"): a sandbox with a state
 * file takes 20,000 resting LIMIT orders of 100 accounts (MAX_NUM_ORDERS is 200 each) sent all at
 * once over 256 connections, so the book and the saved state grow to 20,000 open orders; then
 * 4,000 sequential newOrder / cancel requests on one connection. Prints orders per second and the state file's size. Run: npx tsx scripts/sandbox-durability.ts
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { hmacSha256Hex } from '../src/exchange/signing/hmac.ts';
import { SqliteStateStore } from '../src/sandbox/accounts/sqlite-state-store.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { createLogger } from '../src/log/logger.ts';

const CONCURRENT = Number(process.env['ORDERS'] ?? 20_000);
const SEQUENTIAL = 4000;
const ACCOUNTS = 100;
const HUGE = { limit: 1e12, windowMs: 60_000 };

const dir = mkdtempSync(join(tmpdir(), 'halyard-durability-'));
const file = join(dir, 'bench.db');
const s = await startSandbox({ config: { admin: { enabled: true }, market: { enabled: false }, rateLimits: { pools: { IP: HUGE, UID: HUGE, ORDERS: HUGE } }, auth: { recvWindowMax: 600_000 } }, stateStore: new SqliteStateStore(file), logger: createLogger({ level: 'error' }) });
try {
  const admin = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const r = await fetch(`${s.baseUrl}${s.config.admin.prefix}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    return (await r.json()) as Record<string, unknown>;
  };
  const keys: { apiKey: string; secret: string }[] = [];
  for (let a = 0; a <= ACCOUNTS; a++) {
    const account = await admin('/accounts', { email: `bench${a}@example.com`, balances: { PHP: '1000000000' } });
    const key = await admin('/keys', { accountId: account['id'] });
    keys.push({ apiKey: String(key['apiKey']), secret: String(key['secret']) });
  }
  const send = async (pool: Pool, method: 'POST' | 'DELETE', query: string, i: number) => {
    const k = keys[i]!;
    // Queued requests may wait long for a connection: a wide (signed) recvWindow.
    const q = `${query}&recvWindow=600000&timestamp=${Date.now()}`;
    const r = await pool.request({ method, path: `/openapi/v1/order?${q}&signature=${hmacSha256Hex(k.secret, q)}`, headers: { 'X-SERVICE-APIKEY': k.apiKey } });
    const text = await r.body.text();
    if (r.statusCode !== 200) throw new Error(`HTTP ${r.statusCode}: ${text}`);
  };
  const order = (i: number) => `symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=${1_000_000 + (i % 1000) * 100}&newOrderRespType=ACK&newClientOrderId=o${i}`;

  const many = new Pool(s.baseUrl, { connections: 256 });
  let t = performance.now();
  await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => send(many, 'POST', order(i), i % ACCOUNTS)));
  const concurrentMs = performance.now() - t;
  await many.close();

  const one = new Pool(s.baseUrl, { connections: 1 });
  t = performance.now();
  for (let i = 0; i < SEQUENTIAL; i++) {
    if (i % 2 === 0) await send(one, 'POST', order(CONCURRENT + i), ACCOUNTS);
    else await send(one, 'DELETE', `origClientOrderId=o${CONCURRENT + i - 1}`, ACCOUNTS);
  }
  const sequentialMs = performance.now() - t;
  await one.close();

  const open = keys.reduce((n, k) => n + s.services.engine!.openOrders(s.accounts.getKey(k.apiKey)!.accountId).length, 0);
  console.log(`${CONCURRENT} concurrent resting orders: ${concurrentMs.toFixed(0)} ms, ${Math.round((CONCURRENT / concurrentMs) * 1000)} orders/s (${open} open after)`);
  console.log(`${SEQUENTIAL} sequential newOrder/cancel with ${open} open orders: ${sequentialMs.toFixed(0)} ms, ${Math.round((SEQUENTIAL / sequentialMs) * 1000)} requests/s`);
  console.log(`state file: ${(statSync(file).size / 1e6).toFixed(1)} MB (+ WAL ${(statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0) / 1e6} MB)`);
} finally {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
}
