/**
 * The API-key checks shared by every keyed scheme (spec 5.1): the key exists and is enabled
 * (-2015), and the caller's IP passes the key's whitelist: -1023 when the key must have a
 * whitelist but has none, -2017 when the IP is not listed (only enforced when `ipRestrict`).
 */
import type { ApiKeyRecord, SandboxAccount } from '../contracts.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { venueErrors } from '../http/error-codes.ts';

export interface KeyedCaller {
  key: ApiKeyRecord;
  account: SandboxAccount;
}

export function findUsableKey(accounts: AccountRegistry, apiKey: string, ip: string): KeyedCaller {
  const key = accounts.getKey(apiKey);
  const account = key === undefined ? undefined : accounts.getAccount(key.accountId);
  if (!key || !key.enabled || !account) throw venueErrors.invalidKey();
  checkIp(key, ip);
  return { key, account };
}

export function checkIp(key: ApiKeyRecord, ip: string): void {
  if ((key.requiresWhitelist || key.ipRestrict) && key.ipList.length === 0) throw venueErrors.whitelistFirst();
  if (key.ipRestrict && !key.ipList.includes(ip)) throw venueErrors.ipNotWhitelisted(ip);
}
