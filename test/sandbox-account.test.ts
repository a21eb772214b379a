/**
 * Accounts' money in the sandbox end to end (issue "Sandbox exchange" deliverable 8; spec 2.7, 2.9,
 * 2.12, 4.3, 4.9 asset transaction history; notes 6 account extras and transfers v4): the project's
 * client over real HTTP against the built-in wallet and account plugins, the admin API, and `ws` user data streams.
 */
import { describe, expect, it } from 'vitest';
import { hmacSha256Hex } from '../src/exchange/signing/hmac.ts';
import type { SandboxConfigInput } from '../src/sandbox/config/schema.ts';
import { cryptoAccountId } from '../src/sandbox/money/account/crypto-accounts.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { TestClient } from '../src/sandbox/streams/testing/ws-client.ts';
import { adminCall, ALICE, BOB, closeAfterEach, KEYS, rejection, sandboxClient, type ApiKey } from './support/sandbox-fixture.ts';

const DAY = 86_400_000;
const CAROL = 'carol@example.com';
const defer = closeAfterEach();

async function sandbox(extra: Pick<SandboxConfigInput, 'variants'> = {}): Promise<SandboxHandle> {
  const s = await startSandbox({
    config: {
      ...extra,
      admin: { enabled: true },
      accounts: [
        { email: ALICE, uid: '100000001', balances: { PHP: '100000', BTC: '0.03' }, keys: [KEYS.alice] },
        { email: BOB, uid: '100000002', balances: { PHP: '10' }, keys: [KEYS.bob] },
        { email: CAROL, uid: '100000003', masterEmail: ALICE },
      ],
    },
  });
  defer(() => s.close());
  return s;
}

const client = (s: SandboxHandle, key: ApiKey = KEYS.alice, recvWindow = 5000) => sandboxClient(s, defer, { key, exchange: { retry: { maxAttempts: 1 }, recvWindow } });
const admin = (s: SandboxHandle, method: string, path: string, body?: unknown) => adminCall(s, method, path, body);

/** A signed GET with exactly these parameters plus timestamp (no recvWindow unless given), as other clients send it. */
async function signedGet(s: SandboxHandle, path: string, params: Record<string, string | number> = {}): Promise<{ status: number; body: { code?: number; msg?: string } }> {
  const query = new URLSearchParams(Object.entries({ ...params, timestamp: s.clock.now() }).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const r = await fetch(`${s.baseUrl}${path}?${query}&signature=${hmacSha256Hex(KEYS.alice.secret, query)}`, { headers: { 'X-SERVICE-APIKEY': KEYS.alice.apiKey } });
  return { status: r.status, body: (await r.json()) as { code?: number; msg?: string } };
}

async function userStream(s: SandboxHandle, c: ReturnType<typeof client>): Promise<TestClient> {
  const { listenKey } = await c.userStream.startUserDataStream();
  const ws = await TestClient.open(`${s.wsUrl}/openapi/ws/${listenKey}`);
  defer(async () => ws.close());
  return ws;
}

const free = (s: SandboxHandle, id: string, asset: string) => s.services.balances?.get(id, asset).free;

describe('sandbox account: information and crypto accounts', () => {
  it('answers the account with balances, flags, limits and the notes 6 extras', async () => {
    const s = await sandbox();
    const info = await client(s).account.account();
    expect(info).toMatchObject({
      accountType: 'SPOT',
      canDeposit: true,
      canTrade: true,
      canWithdraw: true,
      token: 'PHP',
      email: ALICE,
      enableWithdrawWhitelist: true,
      balances: [
        { asset: 'PHP', free: '100000', locked: '0' },
        { asset: 'BTC', free: '0.03', locked: '0' },
      ],
      daily: { cashInLimit: '500000', cashInRemaining: '500000', totalWithdrawLimit: '500000', totalWithdrawRemaining: '500000' },
      annually: { cashOutLimit: '120000000' },
      p2pDaily: { cashOutLimit: '100000', cashOutRemaining: '100000' },
    });
    expect(Math.abs(info.updateTime - s.clock.now())).toBeLessThan(5000);
    s.accounts.setFrozen('100000001', true);
    expect(await client(s).account.account()).toMatchObject({ canTrade: false, canWithdraw: false, canDeposit: false });
  });

  it('lists one crypto account per asset with a stable id, filtered by currency', async () => {
    const s = await sandbox();
    const { 'crypto-accounts': all } = await client(s).account.cryptoAccounts();
    expect(all.map((a) => a.currency)).toEqual(['PHP', 'BTC', 'ETH', 'USDT']);
    expect(all[1]).toEqual({ id: cryptoAccountId('100000001', 'BTC'), name: 'BTC', currency: 'BTC', balance: '0.03', pending_balance: '0' });
    expect(all[1]?.id).toMatch(/^\d{19}$/);
    expect((await client(s).account.cryptoAccounts({ currency: 'php' }))['crypto-accounts']).toEqual([expect.objectContaining({ currency: 'PHP', balance: '100000' })]);
  });
});

describe('sandbox account: transfers', () => {
  it('transfers by e-mail: both balances move, both streams get balanceUpdate P2P_TRANSFER, limits are charged', async () => {
    const s = await sandbox();
    const alice = client(s);
    const bob = client(s, KEYS.bob);
    const wsA = await userStream(s, alice);
    const wsB = await userStream(s, bob);
    const r = await alice.account.createTransfer({ client_transfer_id: 'c-1', account: 'PHP', target_address: BOB, amount: '1500.5', message: 'lunch' });
    expect(r.transfer).toMatchObject({ status: 'success', account: 'PHP', target_address: BOB, amount: '1500.5', client_transfer_id: 'c-1', message: 'lunch', errorMessage: null, exchange: null, payment: null });
    expect(r.transfer.id).toMatch(/^[0-9a-f]{32}$/);
    expect(free(s, '100000001', 'PHP')).toBe('98499.5');
    expect(free(s, '100000002', 'PHP')).toBe('1510.5');
    expect((await wsA.next((f) => f.json['e'] === 'balanceUpdate')).json).toMatchObject({ a: 'PHP', d: '-1500.5', BS: 'P2P_TRANSFER' });
    expect((await wsB.next((f) => f.json['e'] === 'balanceUpdate')).json).toMatchObject({ a: 'PHP', d: '1500.5', BS: 'P2P_TRANSFER' });
    expect((await alice.account.account()).p2pDaily?.cashOutRemaining).toBe('98499.5');
    expect((await bob.account.account()).p2pDaily?.cashInRemaining).toBe('98499.5');
  });

  it('transfers by phone (v4) and by crypto-account id, echoing customSenderName', async () => {
    const s = await sandbox();
    await admin(s, 'POST', '/phones', { email: BOB, phone: '+63 917-000-0002' });
    const alice = client(s);
    // Without a client id (the client would generate one): the venue echoes null.
    const v4 = await alice.account.createTransferV4({ account: 'BTC', target_address: '+639170000002', amount: '0.01', customSenderName: 'Alice Co' }, { generateClientId: false });
    expect(v4.transfer).toMatchObject({ status: 'success', customSenderName: 'Alice Co', client_transfer_id: null });
    const byId = await alice.account.createTransfer({ account: cryptoAccountId('100000001', 'BTC'), target_address: BOB, amount: '0.005' });
    expect(byId.transfer.status).toBe('success');
    expect(free(s, '100000002', 'BTC')).toBe('0.015');
  });

  it('answers failed records for an unknown recipient or too little balance; errors for bad parameters', async () => {
    const s = await sandbox();
    const alice = client(s);
    const bob = client(s, KEYS.bob);
    const unknown = await alice.account.createTransfer({ client_transfer_id: 'c-x', account: 'PHP', target_address: 'nobody@example.com', amount: '1' });
    expect(unknown.transfer).toMatchObject({ status: 'failed', client_transfer_id: 'c-x' });
    expect(unknown.transfer.errorMessage).toContain('Recipient not found');
    const poor = await bob.account.createTransferV4({ account: 'PHP', target_address: ALICE, amount: '11' });
    expect(poor.transfer).toMatchObject({ status: 'failed', errorMessage: expect.stringContaining('Balance insufficient') });
    expect(free(s, '100000001', 'PHP')).toBe('100000');
    expect(free(s, '100000002', 'PHP')).toBe('10');

    // The failed record keeps its client id: reusing it is refused.
    const dup = await rejection(alice.account.createTransfer({ client_transfer_id: 'c-x', account: 'PHP', target_address: BOB, amount: '1' }));
    expect(dup).toMatchObject({ code: -1025 });
    expect(dup.msg).toContain('client_transfer_id');
    expect(await rejection(alice.account.createTransfer({ account: 'NOPE', target_address: BOB, amount: '1' }))).toMatchObject({ code: -1025 });
    expect((await rejection(alice.account.createTransfer({ account: 'PHP', target_address: BOB, amount: '0.001' }))).msg).toContain('transferPrecision');
    expect(free(s, '100000002', 'PHP')).toBe('10');
  });

  it('queries transfers by id, by client id, and as pages filtered by address', async () => {
    const s = await sandbox();
    const alice = client(s);
    const bob = client(s, KEYS.bob);
    const t1 = (await alice.account.createTransfer({ client_transfer_id: 'a-1', account: 'PHP', target_address: BOB, amount: '1' })).transfer;
    await alice.account.createTransfer({ client_transfer_id: 'a-2', account: 'PHP', target_address: 'Bob@Example.com', amount: '2' });
    await bob.account.createTransfer({ account: 'PHP', target_address: ALICE, amount: '3' });
    await alice.account.createTransfer({ account: 'PHP', target_address: 'ghost@example.com', amount: '4' });

    const one = await alice.account.getTransfers({ id: t1.id, client_transfer_id: 'a-2' });
    expect(one.transfers).toEqual([
      expect.objectContaining({ id: t1.id, client_transfer_id: 'a-1', type: 2, currency: 'PHP', fee_amount: '0', sourceAddress: ALICE, target_address: BOB, status: 'success' }),
    ]);
    expect(one.transfers[0]?.created_at).toBe(new Date(one.transfers[0]?.created_at ?? '').toISOString());
    expect((await alice.account.getTransfers({ client_transfer_id: 'a-2' })).transfers.map((t) => t.amount)).toEqual(['2']);
    expect((await alice.account.getTransfers({ client_transfer_id: 'nope' })).transfers).toEqual([]);
    // Bob sees t1 as an incoming transfer, without Alice's client id.
    expect((await bob.account.getTransfers({ id: t1.id })).transfers[0]).toMatchObject({ type: 1, client_transfer_id: null });

    const all = await alice.account.getTransfers();
    expect(all.transfers.map((t) => [t.amount, t.type, t.status])).toEqual([
      ['1', 2, 'success'],
      ['2', 2, 'success'],
      ['3', 1, 'success'],
      ['4', 2, 'failed'],
    ]);
    // Spec 2.9: the page numbers are ints, page + 1 and page - 1 (as the asset history's); total_count tells the end.
    expect(all.meta).toEqual({ total_count: 4, next_page: 2, previous_page: 0 });
    const page2 = await alice.account.getTransfers({ page: 2, per_page: 1 });
    expect(page2.transfers.map((t) => t.amount)).toEqual(['2']);
    expect(page2.meta).toEqual({ total_count: 4, next_page: 3, previous_page: 1 });
    expect((await alice.account.getTransfers({ page: 4, per_page: 1 })).meta).toEqual({ total_count: 4, next_page: 5, previous_page: 3 });
    expect(one.meta).toEqual({ total_count: 1, next_page: 2, previous_page: 0 });
    expect((await alice.account.getTransfers({ from_address: BOB })).transfers.map((t) => t.amount)).toEqual(['3']);
    expect((await alice.account.getTransfers({ to_address: 'bob@example.com' })).transfers.map((t) => t.amount)).toEqual(['1', '2']);
  });
});

describe('sandbox account: asset transaction history', () => {
  it('reads the money ledger of one token in 7-day windows, paged, for the caller or its sub-account', async () => {
    const s = await sandbox();
    const alice = client(s);
    const t0 = s.clock.now();
    await alice.account.createTransfer({ account: 'PHP', target_address: BOB, amount: '5' });
    await admin(s, 'POST', '/deposits', { email: ALICE, coin: 'BTC', network: 'BTC', amount: '0.1', confirmations: 2 });
    await admin(s, 'POST', '/clock', { advanceMs: 3 * DAY });
    await alice.account.createTransfer({ account: 'PHP', target_address: CAROL, amount: '7' });

    const php = await alice.subAccount.assetTransactionHistory({ tokenId: 'PHP' });
    expect(php.transfers.map((t) => [t.bizSubject, t.changed, t.status, t.tokenId])).toEqual([
      ['P2P_TRANSFER', '-5', 'success', 'PHP'],
      ['P2P_TRANSFER', '-7', 'success', 'PHP'],
    ]);
    expect(php.meta).toEqual({ has_next: false, next_page: 2, previous_page: 0 });
    expect((await alice.subAccount.assetTransactionHistory({ tokenId: 'btc' })).transfers).toEqual([expect.objectContaining({ bizSubject: 'CHAIN_DEPOSIT', changed: '0.1' })]);

    // Only startTime: the 7 days after it; only endTime: the 7 days before it.
    expect((await alice.subAccount.assetTransactionHistory({ tokenId: 'PHP', startTime: t0 + DAY })).transfers.map((t) => t.changed)).toEqual(['-7']);
    expect((await alice.subAccount.assetTransactionHistory({ tokenId: 'PHP', endTime: t0 + DAY })).transfers.map((t) => t.changed)).toEqual(['-5']);
    const paged = await alice.subAccount.assetTransactionHistory({ tokenId: 'PHP', pageNum: 1, pageSize: 1 });
    expect(paged.transfers.map((t) => t.changed)).toEqual(['-5']);
    expect(paged.meta.has_next).toBe(true);

    // The master reads its sub-account; another account's UID is refused.
    const carol = await alice.subAccount.assetTransactionHistory({ tokenId: 'PHP', subUserId: '100000003' });
    expect(carol.transfers).toEqual([expect.objectContaining({ changed: '7', bizSubject: 'P2P_TRANSFER' })]);
    expect(await rejection(alice.subAccount.assetTransactionHistory({ tokenId: 'PHP', subUserId: '100000002' }))).toMatchObject({ code: -1025 });

    // A withdrawal shows as processing, then success once settled on sandbox time.
    await admin(s, 'POST', '/withdraw-whitelist', { email: ALICE, coin: 'BTC', network: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' });
    await alice.wallet.withdraw({ coin: 'BTC', network: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', amount: '0.01' });
    const pending = await alice.subAccount.assetTransactionHistory({ tokenId: 'BTC' });
    expect(pending.transfers.map((t) => [t.bizSubject, t.changed, t.status])).toEqual([
      ['CHAIN_DEPOSIT', '0.1', 'success'],
      ['CHAIN_WITHDRAWAL', '-0.0102', 'processing'],
    ]);
    await admin(s, 'POST', '/clock', { advanceMs: 60_000 });
    expect((await alice.subAccount.assetTransactionHistory({ tokenId: 'BTC' })).transfers[1]?.status).toBe('success');
  });
});

describe('sandbox account: recvWindow terms of single endpoints', () => {
  const REQUIRED = ['/openapi/account/v3/crypto-accounts', '/openapi/transfer/v3/transfers', '/openapi/transfer/v3/transfers/0a1b2c'];

  it('spec 4.3: crypto-accounts and the transfer query refuse a missing recvWindow (-1105); other signed calls default it to 5000', async () => {
    const s = await sandbox();
    for (const path of REQUIRED) {
      expect(await signedGet(s, path), path).toEqual({ status: 400, body: { code: -1105, msg: "parameter 'recvWindow' is required" } });
      expect((await signedGet(s, path, { recvWindow: 5000 })).status, path).toBe(200);
    }
    expect((await signedGet(s, '/openapi/v1/account')).status).toBe(200);
    // Halyard's client sends its window on every signed call.
    expect((await client(s).account.cryptoAccounts())['crypto-accounts']).not.toEqual([]);
    expect((await client(s).account.getTransfers()).transfers).toEqual([]);
  });

  it('spec 4.9: the asset transaction history refuses recvWindow 60000 (-1025 naming it); the client caps its window to 59999', async () => {
    const s = await sandbox();
    const at = (recvWindow: number) => signedGet(s, '/openapi/v1/asset/transaction/history', { tokenId: 'PHP', recvWindow });
    expect(await at(60_000)).toEqual({ status: 400, body: { code: -1025, msg: "parameter 'recvWindow' is not valid: must be an integer from 1 to 59999" } });
    expect((await at(59_999)).status).toBe(200);
    // Elsewhere 60000 is the spec 5.3 maximum, and allowed.
    expect((await signedGet(s, '/openapi/v1/account', { recvWindow: 60_000 })).status).toBe(200);
    expect((await client(s, KEYS.alice, 60_000).subAccount.assetTransactionHistory({ tokenId: 'PHP' })).transfers).toEqual([]);
  });

  it('the recvWindowOptional variant accepts them without one, as the third-party client sends them (notes 2.5)', async () => {
    const s = await sandbox({ variants: { recvWindowOptional: true } });
    for (const path of REQUIRED) expect((await signedGet(s, path)).status, path).toBe(200);
  });
});
