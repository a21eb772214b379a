/**
 * Creates the configured accounts, keys and starting balances (masters first, then their
 * sub-accounts). Starting balances go through the injected BalancePort; without one they are
 * skipped (the engine's plugin may seed them itself).
 */
import type { SandboxConfig } from '../config/schema.ts';
import type { BalancePort } from './balance-port.ts';
import type { AccountRegistry } from './registry.ts';

export function seedAccounts(registry: AccountRegistry, config: Pick<SandboxConfig, 'accounts'>, now: number, balances?: BalancePort): void {
  const masters = config.accounts.filter((a) => a.masterEmail === undefined);
  const subs = config.accounts.filter((a) => a.masterEmail !== undefined);
  for (const entry of [...masters, ...subs]) {
    const master = entry.masterEmail === undefined ? undefined : registry.findByEmail(entry.masterEmail);
    const account = registry.createAccount({ email: entry.email, id: entry.uid, masterId: master?.id, createdAt: now });
    for (const key of entry.keys) registry.createKey({ ...key, accountId: account.id, createdAt: now });
    if (balances) {
      for (const [asset, amount] of Object.entries(entry.balances)) if (Number(amount) > 0) balances.credit(account.id, asset, amount);
    }
  }
}
