/**
 * Spec 4.9 API-key IP restriction of a sub-account's key (master only; shape spec 2.12). The
 * changes go to the key record in the account registry, so the auth layer enforces them on the
 * next request (auth/key-check.ts: -2017 from an unlisted IP, -1023 while restricted with an
 * empty list).
 *
 * - get: `{apikey, ipList, ipRestrict, role, updateTime}`; `role` lists the key's role codes, and
 *   for a key without roles (every permission, spec 5.1.3) the functional codes "2,3,4,5,6" as in
 *   the spec's sample. `updateTime` is the last restriction change, else the key's creation.
 * - add: `ipRestriction` 1 restricts to the trusted list, 2 lifts the restriction (the list is
 *   kept); `ipAddress` (comma-separated) is added to the list. Restricting a key whose list would
 *   stay empty is refused (-1105 ipAddress) rather than locking the key out.
 * - delete: removes the listed IPs (unlisted ones are ignored). The restriction stays as it was:
 *   a restricted key whose list becomes empty then fails with -1023 until IPs are added.
 * IPs must be IPv4 or IPv6 literals (-1025 otherwise).
 */
import { isIP } from 'node:net';
import type { ApiKeyRecord } from '../../contracts.ts';
import type { HandlerContext } from '../../http/route-types.ts';
import { defineHandlers } from '../../http/route-types.ts';
import { param, requireMaster, subOf } from './access.ts';
import type { SubAccountArea } from './area-state.ts';
import { subAccountErrors } from './errors.ts';

const ALL_FUNCTIONAL_ROLES = '2,3,4,5,6';

function targetKey(ctx: HandlerContext): ApiKeyRecord {
  const master = requireMaster(ctx);
  const sub = subOf(ctx, master, String(ctx.params['email']));
  const apiKey = String(ctx.params['apikey']);
  const key = ctx.sandbox.accounts.getKey(apiKey);
  if (!key || key.accountId !== sub.id || key.merchant) throw subAccountErrors.invalid('apikey', `not an API key of ${sub.email}`);
  return key;
}

function parseIps(text: string | undefined, name = 'ipAddress'): string[] {
  if (text === undefined) return [];
  const ips = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const ip of ips) if (isIP(ip) === 0) throw subAccountErrors.invalid(name, `'${ip}' is not an IP address`);
  return [...new Set(ips)];
}

export function ipRestrictionHandlers(area: SubAccountArea) {
  const view = (key: ApiKeyRecord) => ({
    apikey: key.apiKey,
    ipList: [...key.ipList],
    ipRestrict: key.ipRestrict,
    role: key.roles.length === 0 ? ALL_FUNCTIONAL_ROLES : [...key.roles].sort((a, b) => a - b).join(','),
    updateTime: area.keyUpdateTimes.get(key.apiKey) ?? key.createdAt,
  });
  const update = (ctx: HandlerContext, key: ApiKeyRecord, ipList: string[], ipRestrict: boolean) => {
    area.keyUpdateTimes.set(key.apiKey, ctx.now);
    return view(ctx.sandbox.accounts.updateKey(key.apiKey, { ipList, ipRestrict }));
  };

  return defineHandlers({
    'subAccount.getIpRestriction': (ctx) => view(targetKey(ctx)),
    'subAccount.addIpRestriction': (ctx) => {
      const key = targetKey(ctx);
      const restrict = String(ctx.params['ipRestriction']) === '1';
      const ipList = [...new Set([...key.ipList, ...parseIps(param<string>(ctx, 'ipAddress'))])];
      if (restrict && ipList.length === 0) throw subAccountErrors.missing('ipAddress', 'restricting to trusted IPs needs at least one IP');
      return update(ctx, key, ipList, restrict);
    },
    'subAccount.deleteIpRestriction': (ctx) => {
      const key = targetKey(ctx);
      const remove = new Set(parseIps(String(ctx.params['ipAddress'])));
      return update(
        ctx,
        key,
        key.ipList.filter((ip) => !remove.has(ip)),
        key.ipRestrict,
      );
    },
  });
}
