/** The admin API over HTTP: accounts, keys, balances, faults, listen keys, and extension routes. */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeBalances } from '../accounts/fake-balances.ts';
import { startSandbox, type SandboxHandle } from '../server.ts';
import { AdminError, defineAdminRoute } from './admin-registry.ts';

let s: SandboxHandle | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

async function call(method: string, path: string, body?: unknown) {
  const r = await fetch(`${s!.baseUrl}/sandbox-admin/v1${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  return { status: r.status, body: (await r.json()) as unknown };
}

describe('admin API', () => {
  it('creates accounts and sub-accounts with balances, credits and debits', async () => {
    s = await startSandbox({ config: { admin: { enabled: true }, maxSubAccounts: 1 }, balances: new FakeBalances() });
    const master = (await call('POST', '/accounts', { email: 'm@x.io', balances: { PHP: '50' } })).body as { id: string };
    expect((await call('POST', '/accounts', { email: 's@x.io', masterEmail: 'm@x.io' })).body).toMatchObject({ masterId: master.id });
    expect(await call('POST', '/accounts', { email: 's2@x.io', masterId: master.id })).toMatchObject({ status: 400, body: { code: -1010, msg: expect.stringContaining('SUB_ACCOUNT_LIMIT') } });
    expect((await call('POST', '/balances/credit', { accountId: master.id, asset: 'PHP', amount: '25.5' })).body).toEqual({ asset: 'PHP', free: '75.5', locked: '0' });
    expect((await call('POST', '/balances/debit', { accountId: master.id, asset: 'PHP', amount: '100' })).status).toBe(400);
    expect((await call('GET', `/balances?accountId=${master.id}`)).body).toEqual([{ asset: 'PHP', free: '75.5', locked: '0' }]);
    expect((await call('POST', '/balances/credit', { accountId: master.id, asset: 'PHP', amount: '-1' })).status).toBe(400);
  });

  it('creates, updates and deletes keys', async () => {
    s = await startSandbox({ config: { admin: { enabled: true } } });
    const key = (await call('POST', '/keys', { email: s.config.accounts[0]!.email, roles: [2], merchant: false })).body as { apiKey: string };
    expect((await call('POST', '/keys/update', { apiKey: key.apiKey, enabled: false })).body).toMatchObject({ enabled: false, roles: [2] });
    expect((await call('DELETE', `/keys/${key.apiKey}`)).body).toEqual({ deleted: true });
    expect((await call('POST', '/keys', { roles: [1] })).status).toBe(400);
  });

  it("serves the engine's balances: the demo account starts with its configured balances", async () => {
    s = await startSandbox({ config: { admin: { enabled: true } } });
    const res = await call('GET', `/balances?accountId=${s.config.accounts[0]!.uid}`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toContain('PHP');
    // More than a balance can hold exactly: a clear 400, and nothing changes.
    const accountId = s.config.accounts[0]!.uid;
    const before = (await call('GET', `/balances?accountId=${accountId}`)).body;
    // 1e17: within the request amount bound (persistence/bounds.ts, 1e20 and up is refused before), beyond the balance's 2^53 units.
    const huge = await call('POST', '/balances/credit', { accountId, asset: 'PHP', amount: '100000000000000000' });
    expect(huge).toMatchObject({ status: 400, body: { code: -1010, msg: expect.stringContaining('whole units a balance can hold') } });
    const beyond = await call('POST', '/balances/credit', { accountId, asset: 'PHP', amount: '100000000000000000000' });
    expect(beyond).toMatchObject({ status: 400, body: { code: -1010, msg: expect.stringContaining('amount: must be below 1e20') } });
    expect((await call('GET', `/balances?accountId=${accountId}`)).body).toEqual(before);
  });

  it('manages faults and expires listen keys', async () => {
    s = await startSandbox({ config: { admin: { enabled: true } } });
    const fault = (await call('POST', '/faults', { kind: 'error-before', endpoint: 'general.ping' })).body as { id: string };
    expect((await fetch(`${s.baseUrl}/openapi/v1/ping`)).status).toBe(503);
    expect((await call('DELETE', `/faults/${fault.id}`)).body).toEqual({ removed: true });
    expect((await fetch(`${s.baseUrl}/openapi/v1/ping`)).status).toBe(200);
    const listenKey = s.listenKeys.create(s.accounts.getKey(s.apiKey)!.accountId, s.clock.now())!;
    expect((await call('POST', '/listen-keys/expire', { listenKey })).body).toEqual({ expired: true });
    expect(s.listenKeys.accountOf(listenKey, s.clock.now())).toBeUndefined();
  });

  it('serves routes other areas register', async () => {
    s = await startSandbox({ config: { admin: { enabled: true } } });
    s.registerAdminRoutes([
      defineAdminRoute({
        method: 'POST',
        path: '/test-area/:coin',
        summary: 'test route',
        body: z.strictObject({ amount: z.string() }),
        handler: ({ body, params }) => {
          if (body.amount === '0') throw new AdminError(409, 'zero');
          return { coin: params['coin'], amount: body.amount };
        },
      }),
    ]);
    expect((await call('POST', '/test-area/BTC', { amount: '1' })).body).toEqual({ coin: 'BTC', amount: '1' });
    expect(await call('POST', '/test-area/BTC', { amount: '0' })).toEqual({ status: 409, body: { code: -1010, msg: 'zero' } });
    expect((await call('GET', '/routes')).body).toContainEqual({ method: 'POST', path: '/test-area/:coin', summary: 'test route' });
  });
});
