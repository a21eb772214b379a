/**
 * `halyard sandbox --state file.db`: the whole paper account survives a restart. Over HTTP with
 * the project's client: open orders (still on the book, funds still locked, matching by their
 * old priority), order history, trades, deposits and the asset ledger read the same after a
 * restart as before it; balances keep free + locked. Also: a file of the previous version, a file
 * whose balances disagree with its orders (the order is canceled with a warning, the sandbox
 * starts), and files that are not state files (a clear error naming the file).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { SqliteStateStore } from '../src/sandbox/accounts/sqlite-state-store.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';

const dir = mkdtempSync(join(tmpdir(), 'halyard-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const exchange = parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange;
const CONFIG = { admin: { enabled: true } };
const limit = (side: 'BUY' | 'SELL', quantity: string, price: string, clientOrderId?: string) =>
  ({ symbol: 'BTCPHP', side, type: 'LIMIT', timeInForce: 'GTC', quantity, price, ...(clientOrderId === undefined ? {} : { newClientOrderId: clientOrderId }) }) as const;

function open(s: SandboxHandle, secrets: { apiKey: string; apiSecret: string }) {
  return createClient({ baseUrl: s.baseUrl, exchange, secrets });
}

async function admin(s: SandboxHandle, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const r = await fetch(`${s.baseUrl}${s.config.admin.prefix}${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
  const json = (await r.json()) as Record<string, unknown>;
  expect(r.status, JSON.stringify(json)).toBe(200);
  return json;
}

/** A second account with a key, funded through the admin API (it trades against the demo account). */
async function counterparty(s: SandboxHandle): Promise<{ apiKey: string; apiSecret: string }> {
  const account = await admin(s, 'POST', '/accounts', { email: 'bob@example.com', balances: { BTC: '1', PHP: '10000000' } });
  const key = await admin(s, 'POST', '/keys', { accountId: account['id'] });
  return { apiKey: String(key['apiKey']), apiSecret: String(key['secret']) };
}

type Client = ReturnType<typeof open>['client'];

/** Everything the demo account can read about its trading and money. */
async function readAll(c: Client) {
  const open = await c.spot.openOrders({ symbol: 'BTCPHP' });
  // updateTime of the account answer is the time of the answer.
  const { updateTime: _answeredAt, ...account } = await c.account.account();
  return {
    account,
    open,
    each: await Promise.all(open.map((o) => c.spot.queryOrder({ orderId: o.orderId }))),
    byClientId: await c.spot.queryOrder({ origClientOrderId: 'keep-1' }),
    history: await c.spot.historyOrders({ symbol: 'BTCPHP' }),
    trades: await c.spot.myTrades({ symbol: 'BTCPHP' }),
    deposits: await c.wallet.depositHistory({ coin: 'BTC' }),
    ledger: await c.subAccount.assetTransactionHistory({ tokenId: 'BTC' }),
    depth: await c.market.depth({ symbol: 'BTCPHP' }),
  };
}

describe('sandbox --state', () => {
  it('keeps open orders, order history, trades and deposits across a restart', async () => {
    const file = join(dir, 'paper.db');
    const first = await startSandbox({ config: CONFIG, stateStore: new SqliteStateStore(file) });
    const demo = { apiKey: first.apiKey, apiSecret: first.apiSecret };
    const bobKeys = await counterparty(first);
    let me = open(first, demo);
    let bob = open(first, bobKeys);
    // Two resting bids at one price (demo's first), one canceled, one traded.
    const resting = await me.client.spot.newOrder(limit('BUY', '0.001', '3000000', 'keep-1'));
    await bob.client.spot.newOrder(limit('BUY', '0.002', '3000000'));
    const gone = await me.client.spot.newOrder(limit('BUY', '0.001', '2900000'));
    await me.client.spot.cancelOrder({ orderId: gone.orderId });
    await bob.client.spot.newOrder(limit('SELL', '0.0005', '3000000'));
    const deposit = await admin(first, 'POST', '/deposits', { email: 'demo@sandbox.halyard.local', coin: 'BTC', network: 'BTC', amount: '0.25', confirmations: 10 });
    const before = await readAll(me.client);
    expect(before.open.map((o) => [o.orderId, o.status, o.executedQty])).toEqual([[resting.orderId, 'PARTIALLY_FILLED', '0.0005']]);
    expect(before.trades).toHaveLength(1);
    expect(before.history.map((o) => o.status)).toEqual(['CANCELED']);
    expect(before.deposits.map((d) => [d.id, d.status, d.amount])).toEqual([[deposit['id'], 1, '0.25']]);
    expect(before.account.balances.find((b) => b.asset === 'PHP')?.locked).toBe('1500');
    await me.close();
    await bob.close();
    await first.close();

    const second = await startSandbox({ config: CONFIG, stateStore: new SqliteStateStore(file) });
    me = open(second, demo);
    bob = open(second, bobKeys);
    expect(await readAll(me.client)).toEqual(before);
    // The restored bid keeps its place ahead of bob's at the same price, and new ids go on above the old ones.
    const sell = await bob.client.spot.newOrder(limit('SELL', '0.0005', '3000000'));
    expect(BigInt(sell.orderId)).toBeGreaterThan(BigInt(resting.orderId));
    const trades = await me.client.spot.myTrades({ symbol: 'BTCPHP', orderId: resting.orderId });
    expect(trades.map((t) => t.qty)).toEqual(['0.0005', '0.0005']);
    expect(BigInt(trades[1]!.id)).toBeGreaterThan(BigInt(trades[0]!.id));
    expect(await me.client.spot.queryOrder({ orderId: resting.orderId })).toMatchObject({ status: 'FILLED', executedQty: '0.001' });
    expect((await bob.client.spot.openOrders({ symbol: 'BTCPHP' })).map((o) => [o.origQty, o.executedQty])).toEqual([['0.002', '0']]);
    const next = await admin(second, 'POST', '/deposits', { email: 'demo@sandbox.halyard.local', coin: 'BTC', network: 'BTC', amount: '0.1', confirmations: 10 });
    expect(BigInt(String(next['id']).slice(2))).toBeGreaterThan(BigInt(String(deposit['id']).slice(2)));
    await me.close();
    await bob.close();
    await second.close();
  });

  it('opens a state file of the previous version (accounts, keys, balances) and persists orders from then on', async () => {
    const file = join(dir, 'old.db');
    const seed = await startSandbox({ config: CONFIG });
    const db = new Database(file);
    db.exec(`
      CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE accounts (id TEXT PRIMARY KEY, body TEXT NOT NULL);
      CREATE TABLE api_keys (api_key TEXT PRIMARY KEY, account_id TEXT NOT NULL, body TEXT NOT NULL);
      CREATE TABLE balances (account_id TEXT NOT NULL, asset TEXT NOT NULL, amount TEXT NOT NULL, PRIMARY KEY (account_id, asset));`);
    const snap = seed.accounts.snapshot();
    for (const a of snap.accounts) db.prepare('INSERT INTO accounts (id, body) VALUES (?, ?)').run(a.id, JSON.stringify(a));
    for (const k of snap.keys) db.prepare('INSERT INTO api_keys (api_key, account_id, body) VALUES (?, ?, ?)').run(k.apiKey, k.accountId, JSON.stringify(k));
    db.prepare('INSERT INTO meta (name, value) VALUES (?, ?)').run('nextUid', snap.nextUid);
    const demoId = seed.accounts.getKey(seed.apiKey)!.accountId;
    db.prepare('INSERT INTO balances (account_id, asset, amount) VALUES (?, ?, ?)').run(demoId, 'PHP', '4321.5');
    db.close();
    const secrets = { apiKey: seed.apiKey, apiSecret: seed.apiSecret };
    await seed.close();

    const s = await startSandbox({ config: CONFIG, stateStore: new SqliteStateStore(file) });
    let c = open(s, secrets);
    expect((await c.client.account.account()).balances.find((b) => b.asset === 'PHP')).toMatchObject({ free: '4321.5', locked: '0' });
    expect(await c.client.spot.openOrders({ symbol: 'BTCPHP' })).toEqual([]);
    const o = await c.client.spot.newOrder(limit('BUY', '0.001', '3000000'));
    await c.close();
    await s.close();
    const again = await startSandbox({ config: CONFIG, stateStore: new SqliteStateStore(file) });
    c = open(again, secrets);
    expect((await c.client.spot.openOrders({ symbol: 'BTCPHP' })).map((x) => x.orderId)).toEqual([o.orderId]);
    expect((await c.client.account.account()).balances.find((b) => b.asset === 'PHP')).toMatchObject({ free: '1321.5', locked: '3000' });
    await c.close();
    await again.close();
  });

  it('cancels, with a warning naming it, an order whose funds a hand-edited file took away, and still starts', async () => {
    const file = join(dir, 'edited.db');
    const first = await startSandbox({ config: CONFIG, stateStore: new SqliteStateStore(file) });
    const secrets = { apiKey: first.apiKey, apiSecret: first.apiSecret };
    const accountId = first.accounts.getKey(first.apiKey)!.accountId;
    let c = open(first, secrets);
    const small = await c.client.spot.newOrder(limit('BUY', '0.001', '3000000'));
    const big = await c.client.spot.newOrder(limit('BUY', '0.01', '3000000'));
    await c.close();
    await first.close();
    const db = new Database(file);
    db.prepare("UPDATE balances SET amount = '5000' WHERE account_id = ? AND asset = 'PHP'").run(accountId);
    db.close();

    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) }));
    const s = await startSandbox({ config: CONFIG, stateStore: new SqliteStateStore(file), logger });
    c = open(s, secrets);
    expect((await c.client.spot.openOrders({ symbol: 'BTCPHP' })).map((o) => o.orderId)).toEqual([small.orderId]);
    expect(await c.client.spot.queryOrder({ orderId: big.orderId })).toMatchObject({ status: 'CANCELED' });
    expect((await c.client.account.account()).balances.find((b) => b.asset === 'PHP')).toMatchObject({ free: '2000', locked: '3000' });
    const warning = lines.map((l) => JSON.parse(l) as { msg: string; id?: string }).find((l) => l.id === big.orderId);
    expect(warning?.msg).toContain(`order ${big.orderId} canceled: it holds 30000 PHP but the account has 2000 free`);
    await c.close();
    await s.close();
  });

  it('refuses a file that is not a state file, or whose saved orders are damaged, with the file named', async () => {
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'not a database at all\n'.repeat(100));
    expect(() => new SqliteStateStore(junk)).toThrow(`state file ${junk}: is not a SQLite database, or is damaged`);

    const file = join(dir, 'damaged.db');
    const first = await startSandbox({ config: CONFIG, stateStore: new SqliteStateStore(file) });
    await first.close();
    const db = new Database(file);
    db.prepare("UPDATE parts SET body = ? WHERE key = 'engine'").run(JSON.stringify({ version: 1, orderIds: { first: '1', next: 'x' } }));
    db.close();
    await expect(startSandbox({ config: CONFIG, stateStore: new SqliteStateStore(file) })).rejects.toThrow(`state file ${file}: part "engine": orderIds.next: expected a decimal id`);
  });
});
