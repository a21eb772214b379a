import { describe, expect, it } from 'vitest';
import { AccountRegistry } from './registry.ts';
import { AccountRegistryError } from './registry-errors.ts';
import { FakeBalances } from './fake-balances.ts';
import { seedAccounts } from './seed.ts';
import { parseSandboxConfig } from '../config/load.ts';
import { MemoryStateStore } from './state-store.ts';

describe('AccountRegistry', () => {
  it('creates masters and sub-accounts with sequential uids, at most maxSubAccounts each', () => {
    const r = new AccountRegistry({ maxSubAccounts: 2 });
    const m = r.createAccount({ email: 'm@x.io', createdAt: 1 });
    const s1 = r.createAccount({ email: 's1@x.io', masterId: m.id, createdAt: 1 });
    r.createAccount({ email: 's2@x.io', masterId: m.id, createdAt: 1 });
    expect(BigInt(s1.id)).toBe(BigInt(m.id) + 1n);
    expect(r.subAccountsOf(m.id)).toHaveLength(2);
    expect(() => r.createAccount({ email: 's3@x.io', masterId: m.id, createdAt: 1 })).toThrow(AccountRegistryError);
    expect(() => r.createAccount({ email: 'x@x.io', masterId: s1.id, createdAt: 1 })).toThrow(/sub-account/);
    expect(() => r.createAccount({ email: 'M@X.io', createdAt: 1 })).toThrow(/exists/);
  });

  it('issues random 64-character keys and secrets, and updates them', () => {
    const r = new AccountRegistry({ maxSubAccounts: 30 });
    const a = r.createAccount({ email: 'a@x.io', createdAt: 1 });
    const k = r.createKey({ accountId: a.id, createdAt: 2, roles: [0] });
    expect(k.apiKey).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(k.secret).not.toBe(k.apiKey);
    expect(r.updateKey(k.apiKey, { ipRestrict: true, ipList: ['1.2.3.4'] })).toMatchObject({ ipRestrict: true, ipList: ['1.2.3.4'], roles: [0] });
    expect(() => r.createKey({ accountId: '999', createdAt: 1 })).toThrow(/no account/);
  });

  it('seeds the configured accounts and balances, and round-trips through a state store', () => {
    const config = parseSandboxConfig({
      accounts: [
        { email: 'sub@x.io', masterEmail: 'm@x.io', keys: [{ apiKey: 'subkey123', secret: 'subsecret1' }] },
        { email: 'm@x.io', uid: '500', balances: { PHP: '10' } },
      ],
    });
    const r = new AccountRegistry({ maxSubAccounts: 30 });
    const balances = new FakeBalances();
    seedAccounts(r, config, 0, balances);
    expect(r.findByEmail('sub@x.io')?.masterId).toBe('500');
    expect(balances.get('500', 'PHP').free).toBe('10');
    const store = new MemoryStateStore();
    store.save(r.snapshot());
    const copy = new AccountRegistry({ maxSubAccounts: 30 });
    copy.restore(store.load()!);
    expect(copy.getKey('subkey123')?.accountId).toBe(r.findByEmail('sub@x.io')?.id);
    expect(copy.createAccount({ email: 'new@x.io', createdAt: 0 }).id).toBe('200000002');
  });
});
