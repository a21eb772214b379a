/** `halyard sandbox --state file.db`: a paper account (its keys and balances) survives a restart. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { SqliteStateStore } from '../src/sandbox/accounts/sqlite-state-store.ts';
import { startSandbox } from '../src/sandbox/server.ts';

const dir = mkdtempSync(join(tmpdir(), 'halyard-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const balanceOf = (account: { balances: { asset: string; free: string; locked: string }[] }, asset: string) =>
  account.balances.find((b) => b.asset === asset) ?? { asset, free: '0', locked: '0' };

it('keeps accounts, keys and balances; open orders end with the restart and free their funds', async () => {
  const file = join(dir, 'paper.db');
  const first = await startSandbox({ stateStore: new SqliteStateStore(file) });
  const secrets = { apiKey: first.apiKey, apiSecret: first.apiSecret };
  const exchange = parseConfig({}).exchange;
  let handle = createClient({ baseUrl: first.baseUrl, exchange, secrets });
  const before = balanceOf(await handle.client.account.account(), 'PHP');
  // A resting buy locks PHP; the bought-and-held state is what must survive.
  await handle.client.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '1000000' });
  const locked = balanceOf(await handle.client.account.account(), 'PHP');
  expect(locked.locked).toBe('1000');
  first.services.balances!.credit(first.accounts.getKey(first.apiKey)!.accountId, 'PHP', '1.5');
  await handle.close();
  await first.close();

  const second = await startSandbox({ stateStore: new SqliteStateStore(file) });
  expect(second.apiKey).toBe(secrets.apiKey);
  handle = createClient({ baseUrl: second.baseUrl, exchange, secrets });
  const after = balanceOf(await handle.client.account.account(), 'PHP');
  expect(after.locked).toBe('0');
  expect(Number(after.free)).toBe(Number(before.free) + Number(before.locked) + 1.5);
  expect(await handle.client.spot.openOrders({ symbol: 'BTCPHP' })).toEqual([]);
  await handle.close();
  await second.close();
});
