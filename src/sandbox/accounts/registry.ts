/**
 * In-memory registry of sandbox accounts and API keys (spec 4.9, 5.1; contracts.ts shapes).
 *
 * Accounts are masters or virtual sub-accounts (at most `maxSubAccounts` per master, spec 8.11).
 * UIDs are sequential decimal strings; keys and secrets are random 64-character strings unless
 * given. Balances are not kept here: they belong to the engine (see balance-port.ts).
 * `onChange` listeners run after every mutation (the state store persists on it).
 */
import { randomBytes } from 'node:crypto';
import type { ApiKeyRecord, ApiKeyRole, SandboxAccount } from '../contracts.ts';
import { AccountRegistryError } from './registry-errors.ts';

export interface NewAccount {
  email: string;
  masterId?: string | undefined;
  id?: string | undefined;
  createdAt: number;
}

export interface NewKey {
  accountId: string;
  createdAt: number;
  apiKey?: string | undefined;
  secret?: string | undefined;
  name?: string | undefined;
  roles?: ApiKeyRole[] | undefined;
  ipList?: string[] | undefined;
  ipRestrict?: boolean | undefined;
  requiresWhitelist?: boolean | undefined;
  merchant?: boolean | undefined;
  enabled?: boolean | undefined;
}

export type KeyPatch = Partial<Pick<ApiKeyRecord, 'name' | 'roles' | 'ipList' | 'ipRestrict' | 'requiresWhitelist' | 'enabled' | 'merchant'>>;

export interface RegistrySnapshot {
  accounts: SandboxAccount[];
  keys: ApiKeyRecord[];
  nextUid: string;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomToken(length = 64): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALNUM[b % ALNUM.length];
  return out;
}

export class AccountRegistry {
  private readonly accounts = new Map<string, SandboxAccount>();
  private readonly keys = new Map<string, ApiKeyRecord>();
  private nextUid: bigint;
  private readonly listeners = new Set<() => void>();

  constructor(readonly options: { maxSubAccounts: number; firstUid?: string }) {
    this.nextUid = BigInt(options.firstUid ?? '200000001');
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  createAccount(input: NewAccount): SandboxAccount {
    const email = input.email.trim();
    if (this.findByEmail(email)) throw new AccountRegistryError('DUPLICATE_EMAIL', `an account with e-mail '${email}' exists`);
    if (input.masterId !== undefined) {
      const master = this.require(input.masterId);
      if (master.masterId !== undefined) throw new AccountRegistryError('NOT_A_MASTER', `account ${master.id} is a sub-account`);
      if (this.subAccountsOf(master.id).length >= this.options.maxSubAccounts) {
        throw new AccountRegistryError('SUB_ACCOUNT_LIMIT', `at most ${this.options.maxSubAccounts} sub-accounts per master (spec 8.11)`);
      }
    }
    const id = input.id ?? this.allocateUid();
    if (this.accounts.has(id)) throw new AccountRegistryError('DUPLICATE_UID', `uid ${id} is taken`);
    if (/^\d+$/.test(id) && BigInt(id) >= this.nextUid) this.nextUid = BigInt(id) + 1n;
    const account: SandboxAccount = { id, email, masterId: input.masterId, createdAt: input.createdAt, frozen: false };
    this.accounts.set(id, account);
    this.changed();
    return account;
  }

  getAccount(id: string): SandboxAccount | undefined {
    return this.accounts.get(id);
  }

  require(id: string): SandboxAccount {
    const account = this.accounts.get(id);
    if (!account) throw new AccountRegistryError('NO_SUCH_ACCOUNT', `no account with uid ${id}`);
    return account;
  }

  findByEmail(email: string): SandboxAccount | undefined {
    const lower = email.trim().toLowerCase();
    return [...this.accounts.values()].find((a) => a.email.toLowerCase() === lower);
  }

  subAccountsOf(masterId: string): SandboxAccount[] {
    return [...this.accounts.values()].filter((a) => a.masterId === masterId);
  }

  allAccounts(): SandboxAccount[] {
    return [...this.accounts.values()];
  }

  setFrozen(id: string, frozen: boolean): SandboxAccount {
    const account = this.require(id);
    account.frozen = frozen;
    this.changed();
    return account;
  }

  createKey(input: NewKey): ApiKeyRecord {
    this.require(input.accountId);
    const apiKey = input.apiKey ?? randomToken();
    if (this.keys.has(apiKey)) throw new AccountRegistryError('DUPLICATE_KEY', 'that API key exists');
    const record: ApiKeyRecord = {
      apiKey,
      secret: input.secret ?? randomToken(),
      accountId: input.accountId,
      name: input.name ?? 'key',
      roles: [...(input.roles ?? [])],
      ipList: [...(input.ipList ?? [])],
      ipRestrict: input.ipRestrict ?? false,
      requiresWhitelist: input.requiresWhitelist ?? false,
      enabled: input.enabled ?? true,
      createdAt: input.createdAt,
      merchant: input.merchant ?? false,
    };
    this.keys.set(apiKey, record);
    this.changed();
    return record;
  }

  getKey(apiKey: string): ApiKeyRecord | undefined {
    return this.keys.get(apiKey);
  }

  keysOf(accountId: string): ApiKeyRecord[] {
    return [...this.keys.values()].filter((k) => k.accountId === accountId);
  }

  updateKey(apiKey: string, patch: KeyPatch): ApiKeyRecord {
    const record = this.keys.get(apiKey);
    if (!record) throw new AccountRegistryError('NO_SUCH_KEY', 'no such API key');
    Object.assign(record, Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)));
    this.changed();
    return record;
  }

  deleteKey(apiKey: string): boolean {
    const ok = this.keys.delete(apiKey);
    if (ok) this.changed();
    return ok;
  }

  snapshot(): RegistrySnapshot {
    return {
      accounts: this.allAccounts().map((a) => ({ ...a })),
      keys: [...this.keys.values()].map((k) => ({ ...k, roles: [...k.roles], ipList: [...k.ipList] })),
      nextUid: this.nextUid.toString(),
    };
  }

  /** Replaces everything with a snapshot (state store load). */
  restore(snapshot: RegistrySnapshot): void {
    this.accounts.clear();
    this.keys.clear();
    for (const a of snapshot.accounts) this.accounts.set(a.id, { ...a });
    for (const k of snapshot.keys) this.keys.set(k.apiKey, { ...k });
    this.nextUid = BigInt(snapshot.nextUid);
    this.changed();
  }

  private allocateUid(): string {
    while (this.accounts.has(this.nextUid.toString())) this.nextUid++;
    const id = this.nextUid.toString();
    this.nextUid++;
    return id;
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}
