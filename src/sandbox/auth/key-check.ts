/**
 * The API-key checks shared by every keyed scheme (spec 5.1): the key exists and is enabled
 * (-2015), and, once the caller has proved it holds the secret, the caller's IP passes the key's
 * whitelist (spec 5.1.5): -1023 when the key must have a whitelist but has none, -2017 when the IP
 * is not listed (only enforced when `ipRestrict`), then the key's permission for the route
 * (permissions.ts). Why in that order: see authenticate.ts.
 */
import type { AnyEndpoint } from '../../exchange/endpoints/types.ts';
import type { ApiKeyRecord, SandboxAccount } from '../contracts.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { venueErrors } from '../http/error-codes.ts';
import { checkPermission } from './permissions.ts';

export interface KeyedCaller {
  key: ApiKeyRecord;
  account: SandboxAccount;
}

/** The enabled key and its account, or -2015. Nothing else about the key is revealed yet. */
export function findKey(accounts: AccountRegistry, apiKey: string): KeyedCaller {
  const key = accounts.getKey(apiKey);
  const account = key === undefined ? undefined : accounts.getAccount(key.accountId);
  if (!key || !key.enabled || !account) throw venueErrors.invalidKey();
  return { key, account };
}

export function checkIp(key: ApiKeyRecord, ip: string): void {
  if ((key.requiresWhitelist || key.ipRestrict) && key.ipList.length === 0) throw venueErrors.whitelistFirst();
  if (key.ipRestrict && !key.ipList.includes(ip)) throw venueErrors.ipNotWhitelisted(ip);
}

/** What an authenticated caller may do here: IP whitelist, then key type and permission. */
export function authorise(key: ApiKeyRecord, ip: string, def: AnyEndpoint): void {
  checkIp(key, ip);
  checkPermission(key, def);
}
