/**
 * Crypto accounts (spec 2.7 `GET /openapi/account/v3/crypto-accounts`): one per asset of the
 * account, `{id, name, currency, balance, pending_balance}`. The id is derived from the account
 * and asset (19 digits, stable), so a transfer's `account` may name it instead of the asset code
 * (spec 4.3, later revision). `balance` is the free balance; `pending_balance` the locked part
 * (in open orders). Listed: every asset the account holds or held, then the configured ones.
 */
import { createHash } from 'node:crypto';
import type { SandboxState } from '../../http/route-types.ts';

export function cryptoAccountId(accountId: string, asset: string): string {
  const n = BigInt(`0x${createHash('sha256').update(`crypto-account|${accountId}|${asset}`).digest('hex').slice(0, 15)}`);
  return (1_000_000_000_000_000_000n + (n % 8_000_000_000_000_000_000n)).toString();
}

export interface CryptoAccountView {
  id: string;
  name: string;
  currency: string;
  balance: string;
  pending_balance: string;
}

export function cryptoAccountsOf(state: SandboxState, accountId: string): CryptoAccountView[] {
  const held = state.services.balances?.all(accountId) ?? [];
  const assets = [...new Set([...held.map((b) => b.asset), ...state.config.assets.map((a) => a.coin)])];
  return assets.map((asset) => {
    const b = state.services.balances?.get(accountId, asset) ?? { free: '0', locked: '0' };
    return { id: cryptoAccountId(accountId, asset), name: asset, currency: asset, balance: b.free, pending_balance: b.locked };
  });
}

/** The asset a transfer's `account` names: an asset code, or one of the caller's crypto-account ids. */
export function assetOfAccountParam(state: SandboxState, accountId: string, account: string): string | undefined {
  const upper = account.trim().toUpperCase();
  const views = cryptoAccountsOf(state, accountId);
  return views.find((v) => v.currency === upper)?.currency ?? views.find((v) => v.id === account.trim())?.currency;
}
