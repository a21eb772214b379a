/**
 * Every persistent part of the built-in sandbox survives a restart on a SQLite state file: records
 * made in each area come back the same (checked by the schema on the way in), balances keep
 * free + locked, and id generators continue above the restored ids.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { SqliteStateStore } from '../accounts/sqlite-state-store.ts';
import { SUBJECTS } from '../money/fiat/channels.ts';
import { accountLimitsOf } from '../money/account/limits.ts';
import { contactsOf } from '../money/account/contacts.ts';
import { transfersOf } from '../money/account/transfers.ts';
import { moneyLedgerOf } from '../money/ledger/money-ledger.ts';
import { walletOf } from '../money/wallet/wallet-service.ts';
import { startSandbox, type SandboxHandle } from '../server.ts';
import { persistentPartsOf } from './persistent-parts.ts';

const dir = mkdtempSync(join(tmpdir(), 'halyard-parts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CONFIG = { admin: { enabled: true } };
const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

function populate(s: SandboxHandle): { alice: string; bob: string } {
  const now = s.clock.now();
  const st = s.state;
  const alice = s.accounts.getKey(s.apiKey)!.accountId;
  const bob = s.accounts.createAccount({ email: 'bob@example.com', createdAt: now }).id;
  const sub = s.accounts.createAccount({ email: 'sub@example.com', masterId: alice, createdAt: now }).id;
  s.services.balances!.credit(bob, 'PHP', '1000');
  const wallet = walletOf(st);
  wallet.deposits.create({ accountId: alice, coin: 'BTC', network: 'BTC', amount: '0.5', confirmations: 10 });
  wallet.deposits.create({ accountId: alice, coin: 'BTC', network: 'BTC', amount: '0.25' });
  wallet.whitelist.add(alice, { coin: 'ETH', network: 'ETH', address: '0x52908400098527886E0F7030069857D2E4169EE7', addressName: 'cold' });
  wallet.withdrawals.apply(alice, { coin: 'ETH', network: 'ETH', address: '0x52908400098527886E0F7030069857D2E4169EE7', amount: '0.1' }, now);
  contactsOf(st).setPhone(bob, '+63 917 000 0000');
  transfersOf(st).create(alice, { account: 'PHP', target_address: '+639170000000', amount: '12.5', client_transfer_id: 't-1' }, now);
  accountLimitsOf(st).setLimit({ accountId: alice, book: 'p2p', period: 'daily', limit: '5000' });
  s.services.convertDesk!.addOrder({ orderId: 'c1', quoteId: 'q1', accountId: alice, sourceCurrency: 'PHP', targetCurrency: 'BTC', sourceAmount: '100', targetAmount: '0.00003', price: '3333333.33', inversePrice: '0.0000003', status: 'SUCCESS', createdAt: now });
  s.services.fiatDesk!.create({ internalOrderId: 'f-1', accountId: alice, channel: 'INSTAPAY', subject: SUBJECTS[0]!, amount: '100', fee: '10', createdAt: now, extendInfo: { note: 'x' } });
  const invoices = s.services.invoices!;
  invoices.add({ id: invoices.newId(), accountId: alice, merchantKey: 'mk', amount: '50', received: '0', currency: 'PHP', status: 'pending', externalTransactionId: 'e1', collectors: '[]', paymentUrl: 'u', incomingAddress: 'a', createdAt: now, updatedAt: now, expiresAt: now + 3_600_000, referenceNumber: undefined });
  const requests = s.services.paymentRequests!;
  requests.add({ id: requests.newId(), accountId: alice, payerContactInfo: 'bob@example.com', currency: 'PHP', amount: '20', message: 'lunch', collectors: '[]', paymentUrl: 'u', status: 'pending', createdAt: now, updatedAt: now, expiresAt: now + 3_600_000 });
  const area = s.services.subAccounts!;
  area.transfers.add({ masterId: alice, clientTranId: area.transfers.nextClientTranId(alice), fromAccountId: alice, toAccountId: sub, fromEmail: 'demo', toEmail: 'sub@example.com', asset: 'PHP', amount: '1', createdAt: now, status: 'success' });
  area.collections.add({ masterId: alice, clientRequestId: 'r1', status: 'INIT', comment: '', createdAt: now });
  area.keyUpdateTimes.set(s.apiKey, now);
  s.services.sellOrders!.add({ accountId: alice, payment_outlet: 'o', currency: 'PHP', base_amount: '10', fee: '1', external_transaction_id: undefined, bank_account_number: '1', bank_account_name: 'n', recipient_phone_number: '2', createdAt: now });
  moneyLedgerOf(s.services).record({ accountId: alice, asset: 'PHP', delta: '-0.000000000000000001', bizSubject: 'OTHERS', txId: 'x', time: now });
  const engine = s.services.engine!;
  engine.placeOrder(alice, { symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '3000000', quantity: '0.001', clientOrderId: 'keep' }, now);
  engine.placeOrder(bob, { symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '3100000', quantity: '0.0001' }, now);
  return { alice, bob };
}

it('restores every part of the built-in sandbox as it was saved', async () => {
  const file = join(dir, 'all.db');
  const first = await startSandbox({ config: CONFIG, stateStore: new SqliteStateStore(file) });
  const { alice } = populate(first);
  const parts = persistentPartsOf(first.services);
  expect(parts.keys().sort()).toEqual([
    'account.contacts',
    'account.limits',
    'account.transfers',
    'convert.orders',
    'engine',
    'fiat.orders',
    'legacy-v4.sell-orders',
    'merchant.callbacks',
    'merchant.invoices',
    'money.ledger',
    'payment-requests',
    'sub-account.collections',
    'sub-account.key-times',
    'sub-account.transfers',
    'wallet.deposits',
    'wallet.whitelist',
    'wallet.withdrawals',
  ]);
  const saved = json(parts.dump().parts) as Record<string, unknown>;
  const engineState = json(first.services.engine!.exportState());
  const balances = json(first.services.balances!.all(alice));
  await first.close();

  const second = await startSandbox({ config: CONFIG, stateStore: new SqliteStateStore(file) });
  // Counters continue at the restored value or the new run's own start, whichever is higher.
  const after = persistentPartsOf(second.services).dump();
  // Every archived record (closed orders, trades) is already in the file: nothing to write again.
  expect([after.put, after.drop]).toEqual([[], []]);
  // Counters continue at the restored value, the new run's own start or the id reservation's
  // mark (id-reservations.ts), whichever is highest: never below what was saved. `raised` checks
  // that and puts the saved value in, so the rest compares whole.
  type Loose = Record<string, Record<string, string | number>>;
  const raised = (now: unknown, then: unknown, fields: readonly (readonly [part: string, field: string])[]): void => {
    for (const [part, field] of fields) {
      const n = (now as Loose)[part]!;
      const t = (then as Loose)[part]!;
      expect(BigInt(n[field]!)).toBeGreaterThanOrEqual(BigInt(t[field]!));
      n[field] = t[field]!;
    }
  };
  const ids: [string, string][] = [['orderIds', 'next'], ['tradeIds', 'next']];
  const engineNow = json(second.services.engine!.exportState());
  raised(engineNow, engineState, ids);
  expect(engineNow).toEqual(engineState);
  const restored = json(after.parts) as typeof saved;
  raised(restored['engine'], saved['engine'], ids);
  raised(restored, saved, [
    ['account.transfers', 'nextSeq'],
    ['sub-account.transfers', 'generated'],
    ['fiat.orders', 'paymentSeq'],
    ['merchant.invoices', 'referenceSeq'],
  ]);
  expect(restored).toEqual(saved);
  expect(json(second.services.balances!.all(alice))).toEqual(balances);
  // Ids go on above the restored ones.
  const [d1, d2] = walletOf(second.state).deposits.all(alice);
  const d3 = walletOf(second.state).deposits.create({ accountId: alice, coin: 'BTC', network: 'BTC', amount: '1' });
  expect(BigInt(d3.id.slice(2))).toBeGreaterThan(BigInt(d2!.id.slice(2)));
  expect(d1!.status).toBe(1);
  expect(BigInt(second.services.invoices!.newId())).toBeGreaterThan(BigInt((saved['merchant.invoices'] as { invoices: { id: string }[] }).invoices[0]!.id));
  const t2 = transfersOf(second.state).create(alice, { account: 'PHP', target_address: '+639170000000', amount: '1' }, second.clock.now());
  expect((saved['account.transfers'] as { records: { id: string }[] }).records.map((r) => r.id)).not.toContain(t2.id);
  await second.close();
});
