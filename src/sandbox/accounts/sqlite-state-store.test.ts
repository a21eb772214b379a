import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountRegistry } from './registry.ts';
import { SqliteStateStore } from './sqlite-state-store.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('SqliteStateStore', () => {
  it('is empty at first, then returns what was saved across reopen', () => {
    dir = mkdtempSync(join(tmpdir(), 'halyard-sbx-'));
    const file = join(dir, 'state.db');
    const store = new SqliteStateStore(file);
    expect(store.load()).toBeUndefined();
    const r = new AccountRegistry({ maxSubAccounts: 30 });
    const a = r.createAccount({ email: 'a@x.io', createdAt: 5 });
    r.createKey({ accountId: a.id, apiKey: 'key12345', secret: 'secret12', createdAt: 6, roles: [2], ipList: ['1.1.1.1'] });
    store.save(r.snapshot());
    store.close();
    const again = new SqliteStateStore(file);
    expect(again.load()).toEqual(r.snapshot());
    again.close();
  });
});
