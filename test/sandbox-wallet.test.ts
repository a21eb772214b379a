/**
 * The sandbox wallet end to end (issue "Sandbox exchange" deliverable 8; spec 2.8, 3.2, 4.2, notes 6
 * address whitelist, notes 4.1 balanceUpdate): the project's client over real HTTP against
 * `walletPlugin()`, the admin API for deposits, whitelist entries and the clock, and a `ws` client
 * on the user data stream.
 */
import { describe, expect, it } from 'vitest';
import { hmacSha256Hex } from '../src/exchange/signing/hmac.ts';
import { DEFAULT_ASSETS } from '../src/sandbox/config/defaults.ts';
import { accountPlugin } from '../src/sandbox/money/account/plugin.ts';
import { walletPlugin } from '../src/sandbox/money/wallet/plugin.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { TestClient } from '../src/sandbox/streams/testing/ws-client.ts';
import { adminCall, closeAfterEach, rejection, sandboxClient } from './support/sandbox-fixture.ts';

const DAY = 86_400_000;
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';
const XRP_ADDR = 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY';

const defer = closeAfterEach();

/** Default assets plus XRP, a memo network with an integer withdrawal step. */
const XRP = {
  coin: 'XRP',
  name: 'Ripple',
  networks: [{ network: 'XRP', name: 'Ripple', withdrawFee: '0.25', withdrawMin: '20', withdrawMax: '100000', withdrawIntegerMultiple: '0.5', minConfirm: 1, addressRegex: '^r[1-9A-HJ-NP-Za-km-z]{24,34}$', memoRegex: '^\\d{1,10}$' }],
};

async function sandbox(): Promise<SandboxHandle> {
  const s = await startSandbox({
    config: { admin: { enabled: true }, assets: [...DEFAULT_ASSETS, XRP], accounts: [{ email: 'demo@sandbox.halyard.local', balances: { BTC: '0.03', ETH: '0.5', USDT: '1700', PHP: '100000', XRP: '100' }, keys: [{ name: 'demo' }] }] },
    plugins: [walletPlugin(), accountPlugin()],
  });
  defer(() => s.close());
  return s;
}

const client = (s: SandboxHandle) => sandboxClient(s, defer);
const admin = adminCall;

/** A signed GET sent as is (the client itself refuses the spans the server must refuse). */
async function signedGet(s: SandboxHandle, path: string, params: Record<string, string | number>): Promise<{ status: number; body: Record<string, unknown> }> {
  const q = new URLSearchParams({ ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])), timestamp: String(s.clock.now()) }).toString();
  const r = await fetch(`${s.baseUrl}${path}?${q}&signature=${hmacSha256Hex(s.apiSecret, q)}`, { headers: { 'X-SERVICE-APIKEY': s.apiKey } });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

const accountIdOf = (s: SandboxHandle) => s.accounts.getKey(s.apiKey)?.accountId ?? '';

describe('sandbox wallet: coin configuration and deposit addresses', () => {
  it('lists the configured coins with the caller balances, networks and the notes 6 extras', async () => {
    const s = await sandbox();
    const coins = await client(s).wallet.coinConfig();
    expect(coins.map((c) => c.coin)).toEqual(['BTC', 'ETH', 'USDT', 'PHP', 'XRP']);
    const btc = coins[0];
    expect(btc).toMatchObject({ coin: 'BTC', free: '0.03', locked: '0', legalMoney: false, depositAllEnable: true, transferPrecision: '8', transferMinQuantity: '0.00000001' });
    expect(btc?.networkList[0]).toMatchObject({ network: 'BTC', minConfirm: 2, withdrawFee: '0.0002', withdrawMin: '0.0005' });
    expect(coins.find((c) => c.coin === 'PHP')).toMatchObject({ legalMoney: true, networkList: [], transferPrecision: '2', depositAllEnable: false });
    expect(coins.find((c) => c.coin === 'USDT')?.networkList.map((n) => n.network)).toEqual(['ETH', 'TRX']);
  });

  it('gives a stable address per coin and network, shaped by the chain, with a memo where needed', async () => {
    const s = await sandbox();
    const c = client(s);
    const btc = await c.wallet.depositAddress({ coin: 'BTC', network: 'BTC' });
    expect(btc.address).toMatch(/^bc1q[a-z0-9]{38}$/);
    expect(btc.addressTag).toBe('');
    expect(await c.wallet.depositAddress({ coin: 'btc', network: 'BTC' })).toEqual(btc);
    const erc = await c.wallet.depositAddress({ coin: 'USDT', network: 'ETH' });
    const trc = await c.wallet.depositAddress({ coin: 'USDT', network: 'TRX' });
    expect(erc.address).toMatch(/^0x[0-9a-f]{40}$/);
    expect(trc.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const xrp = await c.wallet.depositAddress({ coin: 'XRP', network: 'XRP' });
    expect(xrp.address).toMatch(/^r/);
    expect(xrp.addressTag).toMatch(/^[1-9]\d{9}$/);
    expect(await rejection(c.wallet.depositAddress({ coin: 'BTC', network: 'TRX' }))).toMatchObject({ code: -1025 });
    expect(await rejection(c.wallet.depositAddress({ coin: 'DOGE', network: 'DOGE' }))).toMatchObject({ code: -1025 });
  });
});

describe('sandbox wallet: deposits', () => {
  it('moves an admin deposit PROCESSING -> SUCCESS at minConfirm, crediting the balance with a balanceUpdate', async () => {
    const s = await sandbox();
    const c = client(s);
    const { listenKey } = await c.userStream.startUserDataStream();
    const ws = await TestClient.open(`${s.wsUrl}/openapi/ws/${listenKey}`);
    defer(async () => ws.close());

    const dep = await admin(s, 'POST', '/deposits', { email: 'demo@sandbox.halyard.local', coin: 'BTC', network: 'BTC', amount: '0.5', txId: 'abc123' });
    expect(dep).toMatchObject({ status: 0, confirmNo: 0, minConfirm: 2, amount: '0.5', coin: 'BTC' });
    expect(String(dep['id'])).toMatch(/^d_\d{16,}$/);
    expect((await c.wallet.depositHistory({ coin: 'BTC' })).map((d) => [d.status, d.txId])).toEqual([[0, 'abc123']]);
    expect((await c.account.apiKeys()).length).toBe(1);

    const one = await admin(s, 'POST', `/deposits/${String(dep['id'])}`, { addConfirmations: 1 });
    expect(one).toMatchObject({ status: 0, confirmNo: 1 });
    expect(s.services.balances?.get(accountIdOf(s), 'BTC').free).toBe('0.03');
    const done = await admin(s, 'POST', `/deposits/${String(dep['id'])}`, { addConfirmations: 1 });
    expect(done).toMatchObject({ status: 1, confirmNo: 2 });
    expect(s.services.balances?.get(accountIdOf(s), 'BTC').free).toBe('0.53');

    const update = await ws.next((f) => f.json['e'] === 'balanceUpdate');
    expect(update.json).toMatchObject({ e: 'balanceUpdate', a: 'BTC', d: '0.5', BS: 'CHAIN_DEPOSIT' });
    const position = await ws.next((f) => f.json['e'] === 'outboundAccountPosition');
    expect(position.json['B']).toEqual([{ a: 'BTC', f: '0.53', l: '0' }]);

    const history = await c.wallet.depositHistory({ status: 1 });
    expect(history).toEqual([expect.objectContaining({ id: dep['id'], status: 1, confirmNo: 2, amount: '0.5', network: 'BTC', address: (await c.wallet.depositAddress({ coin: 'BTC', network: 'BTC' })).address })]);
    // Final: no further changes.
    await admin(s, 'POST', `/deposits/${String(dep['id'])}`, { status: 'FAILED' }, 409);
  });

  it('keeps NEED_FILL_DATA and FAILED deposits uncredited; filters history by status, statuses, txId, time', async () => {
    const s = await sandbox();
    const c = client(s);
    const ref = { accountId: accountIdOf(s), coin: 'ETH', network: 'ETH' };
    const travel = await admin(s, 'POST', '/deposits', { ...ref, amount: '1', confirmations: 12, status: 'NEED_FILL_DATA' });
    expect(travel['status']).toBe(3);
    const failed = await admin(s, 'POST', '/deposits', { ...ref, amount: '2', status: 2 });
    const instant = await admin(s, 'POST', '/deposits', { ...ref, amount: '3', confirmations: 12 });
    expect(instant['status']).toBe(1);
    expect(s.services.balances?.get(accountIdOf(s), 'ETH').free).toBe('3.5');

    expect((await c.wallet.depositHistory({ statuses: '2,3' })).map((d) => d.id)).toEqual([travel['id'], failed['id']]);
    expect((await c.wallet.depositHistory({ txId: String(instant['txId']) })).map((d) => d.amount)).toEqual(['3']);
    expect(await c.wallet.depositHistory({ coin: 'BTC' })).toEqual([]);
    expect((await c.wallet.depositHistory({ offset: 1, limit: 1 })).map((d) => d.id)).toEqual([failed['id']]);
    // A limit below 1 is refused, as everywhere else, instead of slicing from the end (-1 hid the newest record).
    for (const path of ['/openapi/wallet/v1/deposit/history', '/openapi/wallet/v1/withdraw/history']) {
      for (const limit of [-1, 0]) expect(await signedGet(s, path, { limit })).toMatchObject({ status: 400, body: { code: -1025, msg: "parameter 'limit' is not valid: must be >= 1" } });
    }

    await admin(s, 'POST', `/deposits/${String(travel['id'])}`, { status: 'SUCCESS' });
    expect(s.services.balances?.get(accountIdOf(s), 'ETH').free).toBe('4.5');

    // Default window: the last 90 days.
    await admin(s, 'POST', '/clock', { advanceMs: 91 * DAY });
    expect(await c.wallet.depositHistory()).toEqual([]);
    const now = s.clock.now();
    expect(await c.wallet.depositHistory({ startTime: now - 94 * DAY, endTime: now - 5 * DAY })).toHaveLength(3);
    expect(await signedGet(s, '/openapi/wallet/v1/deposit/history', { startTime: now - 95 * DAY, endTime: now })).toMatchObject({ status: 400, body: { code: -1025 } });
  });
});

describe('sandbox wallet: whitelist and withdrawals', () => {
  async function withWhitelist() {
    const s = await sandbox();
    const accountId = accountIdOf(s);
    await admin(s, 'POST', '/withdraw-whitelist', { accountId, coin: 'ETH', network: 'ETH', address: EVM, addressName: 'cold' });
    await admin(s, 'POST', '/withdraw-whitelist', { accountId, coin: 'XRP', network: 'XRP', address: XRP_ADDR, addressTag: '1837465920' });
    return { s, c: client(s), accountId };
  }

  it('lists the whitelist (notes 6) and refuses a malformed address at the admin API', async () => {
    const { s, c, accountId } = await withWhitelist();
    expect(await c.wallet.withdrawAddressWhitelist()).toEqual([
      { address: EVM, addressName: 'cold', addressTag: '', coin: 'ETH', network: 'ETH' },
      { address: XRP_ADDR, addressName: '', addressTag: '1837465920', coin: 'XRP', network: 'XRP' },
    ]);
    expect(await c.wallet.withdrawAddressWhitelist({ coin: 'XRP' })).toHaveLength(1);
    await admin(s, 'POST', '/withdraw-whitelist', { accountId, coin: 'BTC', network: 'BTC', address: 'not-an-address' }, 400);
  });

  it('withdraws to a whitelisted address: debits amount + fee, PROCESSING then SUCCESS with a txId', async () => {
    const { s, c, accountId } = await withWhitelist();
    const { listenKey } = await c.userStream.startUserDataStream();
    const ws = await TestClient.open(`${s.wsUrl}/openapi/ws/${listenKey}`);
    defer(async () => ws.close());

    const { id } = await c.wallet.withdraw({ coin: 'ETH', network: 'ETH', address: EVM, amount: '0.1', withdrawOrderId: 'w-1' });
    expect(id).toMatch(/^\d{16,}$/);
    expect(s.services.balances?.get(accountId, 'ETH').free).toBe('0.398');
    expect((await ws.next((f) => f.json['e'] === 'balanceUpdate')).json).toMatchObject({ a: 'ETH', d: '-0.102', BS: 'CHAIN_WITHDRAWAL' });

    const [pending] = await c.wallet.withdrawHistory();
    expect(pending).toMatchObject({ id, status: 0, amount: '0.1', transactionFee: '0.002', txId: '', withdrawOrderId: 'w-1', network: 'ETH', address: EVM });
    await admin(s, 'POST', '/clock', { advanceMs: 60_000 });
    const [done] = await c.wallet.withdrawHistory({ withdrawOrderId: 'w-1' });
    expect(done).toMatchObject({ id, status: 1, confirmNo: 12 });
    expect(done?.txId).toMatch(/^[0-9a-f]{64}$/);
    expect(s.services.balances?.get('0', 'ETH').free).toBe('0.002');

    // The memo network: the tag is part of the whitelisted combination; amounts in steps of 0.5.
    await c.wallet.withdraw({ coin: 'XRP', network: 'XRP', address: XRP_ADDR, addressTag: '1837465920', amount: '20.5' });
    expect(s.services.balances?.get(accountId, 'XRP').free).toBe('79.25');
    expect((await c.wallet.withdrawHistory({ coin: 'XRP', status: 0 })).map((w) => w.addressTag)).toEqual(['1837465920']);
  });

  it('refuses: not whitelisted, wrong tag, below min, not a multiple, above max, insufficient balance', async () => {
    const { s, c } = await withWhitelist();
    const notListed = await rejection(c.wallet.withdraw({ coin: 'ETH', network: 'ETH', address: '0x0000000000000000000000000000000000000001', amount: '0.1' }));
    expect(notListed.code).toBe(-1010);
    expect(notListed.msg).toContain('whitelist');
    expect((await rejection(c.wallet.withdraw({ coin: 'XRP', network: 'XRP', address: XRP_ADDR, amount: '25' }))).code).toBe(-1010);
    const belowMin = await rejection(c.wallet.withdraw({ coin: 'ETH', network: 'ETH', address: EVM, amount: '0.001' }));
    expect(belowMin).toMatchObject({ code: -1025 });
    expect(belowMin.msg).toContain('minimum');
    const step = await rejection(c.wallet.withdraw({ coin: 'XRP', network: 'XRP', address: XRP_ADDR, addressTag: '1837465920', amount: '20.3' }));
    expect(step.msg).toContain('withdrawIntegerMultiple');
    expect((await rejection(c.wallet.withdraw({ coin: 'XRP', network: 'XRP', address: XRP_ADDR, addressTag: '1837465920', amount: '100000.5' }))).msg).toContain('maximum');
    // 0.5 ETH free: 0.499 + 0.002 fee is too much (the fee is on top).
    expect(await rejection(c.wallet.withdraw({ coin: 'ETH', network: 'ETH', address: EVM, amount: '0.499' }))).toMatchObject({ code: -1131 });
    expect(s.services.balances?.get(accountIdOf(s), 'ETH').free).toBe('0.5');
    expect(await c.wallet.withdrawHistory()).toEqual([]);
  });

  it('refuses over the daily withdraw limit and shows the remaining amount in the account limits', async () => {
    const { s, c } = await withWhitelist();
    await admin(s, 'POST', '/limits', { book: 'account', period: 'daily', kind: 'totalWithdraw', limit: '30000' });
    // 0.1 ETH at the reference price (200,000 PHP) is 20,000 PHP.
    await c.wallet.withdraw({ coin: 'ETH', network: 'ETH', address: EVM, amount: '0.1' });
    const over = await rejection(c.wallet.withdraw({ coin: 'ETH', network: 'ETH', address: EVM, amount: '0.1' }));
    expect(over.code).toBe(-1010);
    expect(over.msg).toContain('daily withdraw limit');
    const limits = await admin(s, 'GET', `/limits?accountId=${accountIdOf(s)}`);
    expect(limits['account']).toMatchObject({ daily: { totalWithdrawLimit: '30000', totalWithdrawRemaining: '10000' } });
  });

  it('settles by admin when auto-completion is off: FAILED refunds amount + fee', async () => {
    const { s, c, accountId } = await withWhitelist();
    await admin(s, 'POST', '/withdrawals/settings', { autoCompleteMs: null });
    const { id } = await c.wallet.withdraw({ coin: 'ETH', network: 'ETH', address: EVM, amount: '0.2' });
    await admin(s, 'POST', '/clock', { advanceMs: DAY });
    expect((await c.wallet.withdrawHistory())[0]?.status).toBe(0);
    const failed = await admin(s, 'POST', `/withdrawals/${id}`, { status: 'FAILED', info: 'chain congested' });
    expect(failed).toMatchObject({ status: 2, info: 'chain congested' });
    expect(s.services.balances?.get(accountId, 'ETH').free).toBe('0.5');
    await admin(s, 'POST', `/withdrawals/${id}`, { status: 'SUCCESS' }, 409);
  });

  it('applies the history windows: 90 days by default, 7 days with withdrawOrderId, spans checked', async () => {
    const { s, c } = await withWhitelist();
    await c.wallet.withdraw({ coin: 'ETH', network: 'ETH', address: EVM, amount: '0.01', withdrawOrderId: 'old' });
    await admin(s, 'POST', '/clock', { advanceMs: 8 * DAY });
    expect(await c.wallet.withdrawHistory({ withdrawOrderId: 'old' })).toEqual([]);
    expect(await c.wallet.withdrawHistory()).toHaveLength(1);
    const now = s.clock.now();
    expect(await c.wallet.withdrawHistory({ withdrawOrderId: 'old', startTime: now - 8.5 * DAY, endTime: now - 2 * DAY })).toHaveLength(1);
    const path = '/openapi/wallet/v1/withdraw/history';
    expect(await signedGet(s, path, { withdrawOrderId: 'old', startTime: now - 8 * DAY, endTime: now })).toMatchObject({ status: 400, body: { code: -1025 } });
    expect(await signedGet(s, path, { startTime: now - 91 * DAY, endTime: now })).toMatchObject({ status: 400, body: { code: -1025 } });
    expect(await signedGet(s, path, { startTime: now - 89 * DAY, endTime: now })).toMatchObject({ status: 200 });
  });
});
