/**
 * `client.reconcileWrite` against the sandbox over HTTP: a money movement committed and then
 * answered 500 (the sandbox's `error-after` fault) is found by the client id the request carried,
 * generated when the caller gave none, and nothing is sent again; one refused before it ran
 * (`error-before`) is not found. Spec 4.2, 4.3, 4.9, 7.1.
 */
import { describe, expect, it } from 'vitest';
import { UnknownOutcomeError } from '../src/exchange/errors/errors.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { ALICE, BOB, closeAfterEach, KEYS, sandboxClient, type ApiKey } from './support/sandbox-fixture.ts';

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';
const defer = closeAfterEach();

async function sandbox(): Promise<SandboxHandle> {
  const s = await startSandbox({
    config: {
      admin: { enabled: true },
      accounts: [
        { email: ALICE, uid: '100000001', balances: { PHP: '100000', ETH: '0.5' }, keys: [KEYS.alice] },
        { email: BOB, uid: '100000002', balances: { PHP: '10' }, keys: [KEYS.bob] },
      ],
    },
  });
  defer(() => s.close());
  return s;
}

const client = (s: SandboxHandle, key: ApiKey = KEYS.alice) => sandboxClient(s, defer, { key, exchange: { timeoutMs: 2000 } });

async function unknownOutcome(call: Promise<unknown>): Promise<UnknownOutcomeError> {
  const e = await call.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(UnknownOutcomeError);
  return e as UnknownOutcomeError;
}

const free = (s: SandboxHandle, key: { apiKey: string }, asset: string) => s.services.balances!.get(s.accounts.getKey(key.apiKey)!.accountId, asset).free;

describe('reconcileWrite against the sandbox', () => {
  it('a withdrawal committed then answered 500, sent without a withdrawOrderId, is found by the generated one; the money left once', async () => {
    const s = await sandbox();
    const c = client(s);
    const r = await fetch(`${s.baseUrl}${s.config.admin.prefix}/withdraw-whitelist`, {
      method: 'POST',
      body: JSON.stringify({ accountId: s.accounts.getKey(KEYS.alice.apiKey)!.accountId, coin: 'ETH', network: 'ETH', address: EVM }),
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(200);
    s.faults.add({ kind: 'error-after', endpoint: 'wallet.withdraw', count: 1 });
    const error = await unknownOutcome(c.wallet.withdraw({ coin: 'ETH', network: 'ETH', address: EVM, amount: '0.1' }));
    expect(error.request?.clientId).toMatchObject({ param: 'withdrawOrderId', generated: true });

    const found = await c.reconcileWrite(error);
    expect(found).toMatchObject({ status: 'found', endpoint: 'wallet.withdraw', param: 'withdrawOrderId', clientId: error.clientId });
    if (found.status !== 'found') return;
    expect(found.record).toMatchObject({ withdrawOrderId: error.clientId, amount: '0.1', network: 'ETH' });
    expect(await c.wallet.withdrawHistory()).toHaveLength(1);
    expect(free(s, KEYS.alice, 'ETH')).toBe('0.398'); // 0.1 and its 0.002 fee, once
  });

  it('a transfer refused before it ran (error-before) is not found, with the caller\'s client_transfer_id', async () => {
    const s = await sandbox();
    const c = client(s);
    s.faults.add({ kind: 'error-before', endpoint: 'account.createTransfer', count: 1 });
    const error = await unknownOutcome(c.account.createTransfer({ client_transfer_id: 'rent-2026-11', account: 'PHP', target_address: BOB, amount: '1500' }));
    await expect(c.reconcileWrite(error, { settle: false })).resolves.toEqual({ status: 'not-found', endpoint: 'account.createTransfer', param: 'client_transfer_id', clientId: 'rent-2026-11' });
    expect(free(s, KEYS.bob, 'PHP')).toBe('10');
  });

  it('a transfer committed then answered 500 is found, and moved the money once', async () => {
    const s = await sandbox();
    const c = client(s);
    s.faults.add({ kind: 'error-after', endpoint: 'account.createTransfer', count: 1 });
    const error = await unknownOutcome(c.account.createTransfer({ account: 'PHP', target_address: BOB, amount: '1500' }));
    const found = await c.reconcileWrite(error);
    expect(found).toMatchObject({ status: 'found', param: 'client_transfer_id', clientId: error.clientId });
    expect(free(s, KEYS.bob, 'PHP')).toBe('1510');
  });

  it('a universal transfer out of a sub-account is looked up under that sub-account (the history defaults to the master\'s)', async () => {
    const s = await sandbox();
    const master = client(s);
    await master.subAccount.create({ accountName: 'desk-a@example.com' });
    await master.subAccount.universalTransfer({ toEmail: 'desk-a@example.com', asset: 'PHP', amount: '500' });
    s.faults.add({ kind: 'error-after', endpoint: 'subAccount.universalTransfer', count: 1 });
    const error = await unknownOutcome(master.subAccount.universalTransfer({ fromEmail: 'desk-a@example.com', asset: 'PHP', amount: '200' }));
    const found = await master.reconcileWrite(error);
    expect(found).toMatchObject({ status: 'found', param: 'clientTranId', clientId: error.clientId });
    if (found.status === 'found') expect(found.record).toMatchObject({ fromEmail: 'desk-a@example.com', amount: '200' });
  });

  it('refuses an error of another endpoint, naming what it takes', async () => {
    const s = await sandbox();
    const c = client(s);
    s.faults.add({ kind: 'error-after', endpoint: 'spot.newOrder', count: 1 });
    const error = await unknownOutcome(c.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '1000000' }));
    await expect(c.reconcileWrite(error)).rejects.toThrow(/reconcileWrite takes an error of wallet\.withdraw, .*; got an error of spot\.newOrder \(orders: reconcileOrder\)/);
  });
});
