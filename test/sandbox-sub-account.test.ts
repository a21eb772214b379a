/**
 * The sandbox's sub-account area end to end (issue "Sandbox exchange", deliverable 8; spec 2.12,
 * 3.2, 4.9, 7.3, 8.9-8.11): a real server on 127.0.0.1 driven by the project's client over HTTP,
 * on frozen time (a VirtualClock base that is never advanced) that the test jumps with the sandbox
 * clock, which the client also reads, so windows and collection tasks move on command.
 * Rules the client itself checks before sending (notBoth, spans) are sent raw and signed, so the
 * sandbox's own answer is what is tested.
 */
import { describe, expect, it } from 'vitest';
import { createClient, type ClientHandle } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { Balances } from '../src/core/portfolio/balances.ts';
import { ExchangeError } from '../src/exchange/errors/errors.ts';
import { hmacSha256Hex } from '../src/exchange/signing/hmac.ts';
import { subAccountPlugin } from '../src/sandbox/money/sub-account/index.ts';
import { depositAddressFor } from '../src/sandbox/money/wallet/addresses.ts';
import { walletOf } from '../src/sandbox/money/wallet/wallet-service.ts';
import { builtInPlugins, startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { TestClient } from '../src/sandbox/streams/testing/ws-client.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const T0 = Date.UTC(2025, 0, 15);
const DAY = 86_400_000;
const defer = closeAfterEach();

interface Rig {
  s: SandboxHandle;
  /** Jumps sandbox (and client) time; no sleeper is woken on the way. */
  clock: { advance(ms: number): void };
  master: ClientHandle['client'];
  as(apiKey: string, secret: string): ClientHandle['client'];
  /** A sub-account created over HTTP, with a key made in the registry. */
  sub(email: string): Promise<{ id: string; email: string; apiKey: string; secret: string; client: ClientHandle['client'] }>;
  raw(method: 'GET' | 'POST', path: string, params: Record<string, string | number>, key?: { apiKey: string; secret: string }): Promise<{ status: number; body: Record<string, unknown> }>;
}

async function rig(): Promise<Rig> {
  const plugins = builtInPlugins().some((p) => p.name === 'sub-account') ? [] : [subAccountPlugin()];
  const s = await startSandbox({ clock: new VirtualClock(T0), config: { admin: { enabled: true } }, plugins });
  const clock = s.clock;
  defer(() => s.close());
  const as = (apiKey: string, apiSecret: string) => {
    const handle = createClient({ baseUrl: s.baseUrl, clock, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey, apiSecret } });
    defer(() => handle.close());
    return handle.client;
  };
  const master = as(s.apiKey, s.apiSecret);
  return {
    s,
    clock,
    master,
    as,
    async sub(email) {
      await master.subAccount.create({ accountName: email });
      const account = s.accounts.findByEmail(email)!;
      const key = s.accounts.createKey({ accountId: account.id, createdAt: clock.now() });
      return { id: account.id, email, apiKey: key.apiKey, secret: key.secret, client: as(key.apiKey, key.secret) };
    },
    async raw(method, path, params, key = { apiKey: s.apiKey, secret: s.apiSecret }) {
      const query = new URLSearchParams(Object.entries({ ...params, timestamp: clock.now() }).map(([k, v]): [string, string] => [k, String(v)])).toString();
      const url = `${s.baseUrl}${path}?${query}&signature=${hmacSha256Hex(key.secret, query)}`;
      const r = await fetch(url, { method, headers: { 'X-SERVICE-APIKEY': key.apiKey } });
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    },
  };
}

async function codeOf(call: Promise<unknown>): Promise<number | undefined> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExchangeError);
  return (err as ExchangeError).venueCode;
}

const free = (s: SandboxHandle, id: string, asset: string) => s.services.balances!.get(id, asset).free;

describe('sandbox sub-accounts: accounts', () => {
  it('creates at most 30 virtual sub-accounts, lists them by page and e-mail, and keeps them master-only', async () => {
    const { s, master, as } = await rig();
    const first = await master.subAccount.create({ accountName: 'desk-1@example.com' });
    expect(first).toEqual({ email: 'desk-1@example.com', createTime: T0, isFreeze: false });
    for (let i = 2; i <= 30; i++) await master.subAccount.create({ accountName: `desk-${i}@example.com` });
    expect(await codeOf(master.subAccount.create({ accountName: 'desk-31@example.com' }))).toBe(-1010);
    expect(await codeOf(master.subAccount.create({ accountName: 'DESK-7@example.com' }))).toBe(-1025);
    expect(await codeOf(master.subAccount.create({ accountName: 'not-an-email' }))).toBe(-1025);

    const page = await master.subAccount.list({ page: 2, limit: 12 });
    expect(page.total).toBe(30);
    expect(page.subAccounts.map((a) => a.email)).toEqual(Array.from({ length: 12 }, (_, i) => `desk-${i + 13}@example.com`));
    expect((await master.subAccount.list()).subAccounts).toHaveLength(10);
    expect(await master.subAccount.list({ email: 'Desk-5@example.com' })).toEqual({ subAccounts: [{ email: 'desk-5@example.com', createTime: T0, isFreeze: false }], total: 1 });

    // A sub-account's key on a master-only endpoint is refused; so is an e-mail outside the family.
    const key = s.accounts.createKey({ accountId: s.accounts.findByEmail('desk-1@example.com')!.id, createdAt: T0 });
    const asSub = as(key.apiKey, key.secret);
    expect(await codeOf(asSub.subAccount.list())).toBe(-1152);
    expect(await codeOf(asSub.subAccount.create({ accountName: 'x@example.com' }))).toBe(-1152);
    expect(await codeOf(master.subAccount.asset({ email: 'nobody@example.com' }))).toBe(-1025);
  });

  it('shows a sub-account balance to its master', async () => {
    const { s, master, sub } = await rig();
    const a = await sub('a@example.com');
    expect(await master.subAccount.asset({ email: a.email })).toEqual({ balances: [] });
    await master.subAccount.universalTransfer({ toEmail: a.email, asset: 'BTC', amount: '0.01' });
    expect(await master.subAccount.asset({ email: a.email })).toEqual({ balances: [{ asset: 'BTC', free: '0.01', locked: '0' }] });
    expect(free(s, a.id, 'BTC')).toBe('0.01');
  });
});

describe('sandbox sub-accounts: transfers and their histories', () => {
  it('moves money master->sub, sub->sub, sub->master and sub-to-master, with records and stream events', async () => {
    const { s, clock, master, sub, raw } = await rig();
    const masterId = s.accounts.getKey(s.apiKey)!.accountId;
    const masterEmail = s.accounts.getAccount(masterId)!.email;
    const a = await sub('a@example.com');
    const b = await sub('b@example.com');
    const { listenKey } = await a.client.userStream.startUserDataStream();
    const ws = await TestClient.open(`${s.wsUrl}/openapi/ws/${listenKey}`);
    defer(() => ws.close());

    expect(await master.subAccount.universalTransfer({ toEmail: a.email, asset: 'PHP', amount: '1000', clientTranId: 'm2a' })).toEqual({ clientTransferId: 'm2a', result: true });
    const update = await ws.next((f) => f.json['e'] === 'balanceUpdate');
    expect(update.json).toMatchObject({ e: 'balanceUpdate', a: 'PHP', d: '1000', BS: 'OTHERS', T: T0 });
    expect((await ws.next((f) => f.json['e'] === 'outboundAccountPosition')).json['B']).toEqual([{ a: 'PHP', f: '1000', l: '0' }]);

    clock.advance(1000);
    await master.subAccount.universalTransfer({ fromEmail: a.email, toEmail: b.email, asset: 'PHP', amount: '300', clientTranId: 'a2b' });
    expect((await ws.next((f) => f.json['e'] === 'balanceUpdate')).json['d']).toBe('-300');
    clock.advance(1000);
    // The venue generates a clientTranId when none is sent (the client would send its own).
    const generated = await master.subAccount.universalTransfer({ fromEmail: b.email, asset: 'PHP', amount: '100' }, { generateClientId: false });
    expect(generated.clientTransferId).toMatch(/^\d{19}$/);
    clock.advance(1000);
    expect(await a.client.subAccount.subToMaster({ asset: 'PHP', amount: '50.5', clientTranId: 's2m' })).toEqual({ clientTransferId: 's2m', result: true });
    expect([free(s, a.id, 'PHP'), free(s, b.id, 'PHP'), free(s, masterId, 'PHP')]).toEqual(['649.5', '200', '99150.5']);
    // Each side is in the money ledger (what asset/transaction/history reads), txId = the transfer id.
    const ledger = s.services.moneyLedger!.entries(a.id, { asset: 'PHP' });
    expect(ledger.map((e) => [e.txId, e.delta, e.bizSubject])).toEqual([['m2a', '1000', 'OTHERS'], ['a2b', '-300', 'OTHERS'], ['s2m', '-50.5', 'OTHERS']]);

    // Refusals: funds, reuse, sides, roles, asset.
    expect(await codeOf(master.subAccount.universalTransfer({ fromEmail: b.email, asset: 'PHP', amount: '200.01' }))).toBe(-1131);
    expect(await codeOf(master.subAccount.universalTransfer({ toEmail: a.email, asset: 'PHP', amount: '1', clientTranId: 'a2b' }))).toBe(-1025);
    expect(await codeOf(master.subAccount.universalTransfer({ fromEmail: a.email, toEmail: a.email, asset: 'PHP', amount: '1' }))).toBe(-1025);
    expect(await codeOf(master.subAccount.universalTransfer({ toEmail: 'stranger@example.com', asset: 'PHP', amount: '1' }))).toBe(-1025);
    expect(await codeOf(master.subAccount.universalTransfer({ toEmail: a.email, asset: 'DOGE', amount: '1' }))).toBe(-1025);
    expect(await codeOf(a.client.subAccount.universalTransfer({ toEmail: b.email, asset: 'PHP', amount: '1' }))).toBe(-1152);
    expect(await codeOf(master.subAccount.subToMaster({ asset: 'PHP', amount: '1' }))).toBe(-1152);
    const none = await raw('POST', '/openapi/v1/sub-account/transfer/universal-transfer', { asset: 'PHP', amount: '1' });
    expect(none.body['code']).toBe(-1105);

    // Universal history: default fromEmail = master; fromEmail / toEmail filters; oldest first (spec 1.2).
    const ids = (r: { result: { clientTranId: string }[] }) => r.result.map((x) => x.clientTranId);
    const mine = await master.subAccount.universalTransferHistory();
    expect(mine).toEqual({ result: [{ clientTranId: 'm2a', fromEmail: masterEmail, toEmail: a.email, asset: 'PHP', amount: '1000', createdAt: T0, status: 'success' }], total: 1 });
    expect(ids(await master.subAccount.universalTransferHistory({ fromEmail: a.email }))).toEqual(['a2b', 's2m']);
    expect(ids(await master.subAccount.universalTransferHistory({ toEmail: masterEmail }))).toEqual([generated.clientTransferId, 's2m']);
    expect(ids(await master.subAccount.universalTransferHistory({ fromEmail: a.email, tokenId: 'BTC' }))).toEqual([]);
    expect(ids(await master.subAccount.universalTransferHistory({ fromEmail: a.email, clientTranId: 'a2b' }))).toEqual(['a2b']);
    const paged = await master.subAccount.universalTransferHistory({ fromEmail: a.email, page: 2, limit: 1 });
    expect([ids(paged), paged.total]).toEqual([['s2m'], 2]);
    // endTime is exclusive; startTime inclusive.
    expect(ids(await master.subAccount.universalTransferHistory({ fromEmail: a.email, startTime: T0 + 1000, endTime: T0 + 3000 }))).toEqual(['a2b']);
    expect(ids(await master.subAccount.universalTransferHistory({ fromEmail: a.email, startTime: T0 + 1000, endTime: T0 + 3001 }))).toEqual(['a2b', 's2m']);

    // Sub history: type 1 in, 2 out; "missing or invalid means 2" (spec 4.9), never an error. The
    // client's type is 1 | 2, so the invalid ones are sent raw.
    expect(ids(await a.client.subAccount.subTransferHistory({ type: 1 }))).toEqual(['m2a']);
    expect(ids(await a.client.subAccount.subTransferHistory())).toEqual(['a2b', 's2m']);
    for (const type of ['7', '0', 'abc', '1.5']) {
      const invalid = await raw('GET', '/openapi/v1/sub-account/transfer/sub-history', { type }, a);
      expect([invalid.status, ids(invalid.body as { result: { clientTranId: string }[] })], type).toEqual([200, ['a2b', 's2m']]);
    }
    expect(ids(await b.client.subAccount.subTransferHistory({ type: 1, asset: 'php' }))).toEqual(['a2b']);
    expect(await codeOf(master.subAccount.subTransferHistory())).toBe(-1152);
    expect(await codeOf(a.client.subAccount.universalTransferHistory())).toBe(-1152);
  });

  it('applies the 30-day window rules of both histories', async () => {
    const { clock, master, sub, raw } = await rig();
    const a = await sub('a@example.com');
    await master.subAccount.universalTransfer({ toEmail: a.email, asset: 'BTC', amount: '0.001', clientTranId: 'old' });
    await a.client.subAccount.subToMaster({ asset: 'BTC', amount: '0.0005', clientTranId: 'old-out' });

    // Both e-mails, and a span of 30 days, are refused by the sandbox itself (sent raw).
    const both = await raw('GET', '/openapi/v1/sub-account/transfer/universal-transfer-history', { fromEmail: a.email, toEmail: 'demo@sandbox.halyard.local' });
    expect([both.status, both.body['code']]).toEqual([400, -1107]);
    const span = await raw('GET', '/openapi/v1/sub-account/transfer/universal-transfer-history', { startTime: T0, endTime: T0 + 30 * DAY });
    expect(span.body['code']).toBe(-1025);
    const subSpan = await raw('GET', '/openapi/v1/sub-account/transfer/sub-history', { startTime: T0, endTime: T0 + 30 * DAY }, a);
    expect(subSpan.body['code']).toBe(-1025);
    const ok = await raw('GET', '/openapi/v1/sub-account/transfer/universal-transfer-history', { startTime: T0, endTime: T0 + 30 * DAY - 1 });
    expect(ok.body['total']).toBe(1);

    // 31 days later the defaults (last 30 days) no longer show them; a startTime alone does.
    clock.advance(31 * DAY);
    expect((await master.subAccount.universalTransferHistory()).total).toBe(0);
    expect((await a.client.subAccount.subTransferHistory()).total).toBe(0);
    expect((await master.subAccount.universalTransferHistory({ startTime: T0 })).total).toBe(1);
    expect((await a.client.subAccount.subTransferHistory({ startTime: T0 - 1 })).result[0]?.clientTranId).toBe('old-out');
    expect((await a.client.subAccount.subTransferHistory({ endTime: T0 + 1, type: 1 })).result[0]?.clientTranId).toBe('old');
  });
});

describe('sandbox sub-accounts: API-key IP restriction', () => {
  it('changes the real key so the auth layer enforces it (-2017 from another IP)', async () => {
    const { s, clock, master, sub } = await rig();
    const a = await sub('a@example.com');
    const b = await sub('b@example.com');
    const ref = { apikey: a.apiKey, email: a.email };
    expect(await master.subAccount.getIpRestriction(ref)).toEqual({ apikey: a.apiKey, ipList: [], ipRestrict: false, role: '2,3,4,5,6', updateTime: T0 });
    expect((await a.client.subAccount.subTransferHistory()).total).toBe(0);

    clock.advance(5000);
    const restricted = await master.subAccount.addIpRestriction({ ...ref, ipRestriction: '1', ipAddress: '203.0.113.7, 198.51.100.23' });
    expect(restricted).toEqual({ apikey: a.apiKey, ipList: ['203.0.113.7', '198.51.100.23'], ipRestrict: true, role: '2,3,4,5,6', updateTime: T0 + 5000 });
    expect(s.accounts.getKey(a.apiKey)).toMatchObject({ ipRestrict: true, ipList: ['203.0.113.7', '198.51.100.23'] });
    expect(await codeOf(a.client.subAccount.subTransferHistory())).toBe(-2017);

    await master.subAccount.addIpRestriction({ ...ref, ipRestriction: '1', ipAddress: '127.0.0.1' });
    expect((await a.client.subAccount.subTransferHistory()).total).toBe(0);
    const removed = await master.subAccount.deleteIpRestriction({ ...ref, ipAddress: '127.0.0.1,198.51.100.23' });
    expect([removed.ipList, removed.ipRestrict]).toEqual([['203.0.113.7'], true]);
    expect(await codeOf(a.client.subAccount.subTransferHistory())).toBe(-2017);

    const open = await master.subAccount.addIpRestriction({ ...ref, ipRestriction: '2' });
    expect([open.ipList, open.ipRestrict]).toEqual([['203.0.113.7'], false]);
    expect((await a.client.subAccount.subTransferHistory()).total).toBe(0);

    // Bad input: an IP that is not one, a key of another sub-account, restricting with no IP.
    expect(await codeOf(master.subAccount.addIpRestriction({ ...ref, ipRestriction: '1', ipAddress: '300.1.2.3' }))).toBe(-1025);
    expect(await codeOf(master.subAccount.getIpRestriction({ apikey: a.apiKey, email: b.email }))).toBe(-1025);
    expect(await codeOf(master.subAccount.getIpRestriction({ apikey: s.apiKey, email: a.email }))).toBe(-1025);
    expect(await codeOf(master.subAccount.addIpRestriction({ apikey: b.apiKey, email: b.email, ipRestriction: '1' }))).toBe(-1105);
    expect(await codeOf(a.client.subAccount.getIpRestriction(ref))).toBe(-1152);
  });
});

describe('sandbox sub-accounts: deposits', () => {
  it("serves a sub-account's deposit address and history from the wallet, with the 90-day rules", async () => {
    const { s, clock, master, sub, raw } = await rig();
    const a = await sub('a@example.com');
    const address = await master.subAccount.depositAddress({ email: a.email, coin: 'ETH', network: 'ETH' });
    const eth = s.config.assets.find((x) => x.coin === 'ETH')!.networks[0]!;
    expect(address).toEqual({ coin: 'ETH', ...depositAddressFor(a.id, 'ETH', eth) });
    expect(address.address).toMatch(/^0x[0-9a-f]{40}$/);
    expect(await codeOf(master.subAccount.depositAddress({ email: a.email, coin: 'ETH', network: 'TRX' }))).toBe(-1025);

    const deposit = walletOf(s.state).deposits.create({ accountId: a.id, coin: 'ETH', network: 'ETH', amount: '0.25', confirmations: 12 });
    walletOf(s.state).deposits.create({ accountId: s.accounts.getKey(s.apiKey)!.accountId, coin: 'ETH', network: 'ETH', amount: '1', confirmations: 12 });
    const history = await master.subAccount.depositHistory({ email: a.email });
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ id: deposit.id, amount: '0.25', coin: 'ETH', status: 1, address: address.address, insertTime: T0 });
    expect(free(s, a.id, 'ETH')).toBe('0.25');
    expect(await master.subAccount.depositHistory({ email: a.email, status: 0 })).toEqual([]);

    const span = await raw('GET', '/openapi/v1/sub-account/wallet/deposit/history', { email: a.email, startTime: T0, endTime: T0 + 90 * DAY });
    expect(span.body['code']).toBe(-1025);
    clock.advance(91 * DAY);
    expect(await master.subAccount.depositHistory({ email: a.email })).toEqual([]);
    expect(await master.subAccount.depositHistory({ email: a.email, startTime: T0, endTime: T0 + DAY })).toHaveLength(1);
  });
});

describe('sandbox sub-accounts: fund collection', () => {
  it('sweeps every sub-account into the master; -10324 while a task is INIT', async () => {
    const { s, clock, master, sub } = await rig();
    const masterId = s.accounts.getKey(s.apiKey)!.accountId;
    const a = await sub('a@example.com');
    const b = await sub('b@example.com');
    await master.subAccount.universalTransfer({ toEmail: a.email, asset: 'PHP', amount: '500' });
    await master.subAccount.universalTransfer({ toEmail: a.email, asset: 'BTC', amount: '0.01' });
    await master.subAccount.universalTransfer({ toEmail: b.email, asset: 'PHP', amount: '200' });
    const balances = s.services.balances;
    if (!(balances instanceof Balances)) throw new Error('expected the engine balances');
    balances.lock(b.id, 'PHP', '50'); // as an open order would

    expect(await master.subAccount.collectFromSubAccount({ clientRequestId: 'sweep-1', remark: 7 })).toEqual({ clientRequestId: 'sweep-1', status: 'INIT', comment: '' });
    expect(await codeOf(master.subAccount.collectFromSubAccount({ clientRequestId: 'sweep-2' }))).toBe(-10324);
    const repeat = await codeOf(master.subAccount.collectFromSubAccount({ clientRequestId: 'sweep-1' }));
    expect(repeat).toBe(-10324);
    expect(await master.subAccount.getFundRecord()).toEqual([{ clientRequestId: 'sweep-1', status: 'INIT', comment: '' }]);
    expect(free(s, a.id, 'PHP')).toBe('500');

    clock.advance(1000);
    const [done] = await master.subAccount.getFundRecord({ clientRequestId: 'sweep-1' });
    expect(done).toEqual({ clientRequestId: 'sweep-1', status: 'PARTIAL_SUCCESS', comment: 'not collected: b@example.com PHP 50 (locked)' });
    expect([free(s, a.id, 'PHP'), free(s, a.id, 'BTC'), free(s, b.id, 'PHP'), free(s, masterId, 'PHP'), free(s, masterId, 'BTC')]).toEqual(['0', '0', '0', '99950', '0.03']);
    expect(await codeOf(master.subAccount.collectFromSubAccount({ clientRequestId: 'sweep-1' }))).toBe(-10324);

    // Only locked money left: nothing moves -> FAILED; once unlocked -> SUCCESS.
    await master.subAccount.collectFromSubAccount({ clientRequestId: 'sweep-2' });
    clock.advance(1000);
    expect((await master.subAccount.getFundRecord({ clientRequestId: 'sweep-2' }))[0]?.status).toBe('FAILED');
    balances.unlock(b.id, 'PHP', '50');
    await master.subAccount.collectFromSubAccount({ clientRequestId: 'sweep-3' });
    clock.advance(999);
    expect((await master.subAccount.getFundRecord({ clientRequestId: 'sweep-3' }))[0]?.status).toBe('INIT');
    clock.advance(1);
    // Oldest first (spec 1.2).
    expect(await master.subAccount.getFundRecord()).toEqual([
      { clientRequestId: 'sweep-1', status: 'PARTIAL_SUCCESS', comment: 'not collected: b@example.com PHP 50 (locked)' },
      { clientRequestId: 'sweep-2', status: 'FAILED', comment: 'not collected: b@example.com PHP 50 (locked)' },
      { clientRequestId: 'sweep-3', status: 'SUCCESS', comment: '' },
    ]);
    expect(free(s, masterId, 'PHP')).toBe('100000');
    expect((await master.subAccount.getFundRecord({ page: 2, size: 2 })).map((t) => t.clientRequestId)).toEqual(['sweep-3']);

    expect(await codeOf(a.client.subAccount.collectFromSubAccount({ clientRequestId: 'x' }))).toBe(-1152);
    expect(await a.client.subAccount.getFundRecord()).toEqual([]);
  });
});
