/**
 * `GET /openapi/v1/api-keys` (protocol notes 6): the calling account's exchange API keys as
 * `{apiKey, apiName, apiType, createTime, ipAccessRestrictions, status}`. `apiType` holds the
 * notes 8 labels of the key's roles; a key without roles has every permission, so it lists all of
 * them. Merchant keys belong to the merchant product and are not listed.
 */
import type { ApiKeyRole } from '../contracts.ts';
import { ROLE_LABELS } from '../auth/permissions.ts';
import { defineHandlers } from '../http/route-types.ts';

const ALL_ROLES: ApiKeyRole[] = [0, 2, 3, 4, 5, 6];

export const apiKeyHandlers = defineHandlers({
  'account.apiKeys': (ctx) =>
    ctx.sandbox.accounts
      .keysOf(ctx.account?.id ?? '')
      .filter((k) => !k.merchant)
      .map((k) => ({
        apiKey: k.apiKey,
        apiName: k.name,
        apiType: (k.roles.length === 0 ? ALL_ROLES : [...k.roles].sort()).map((r) => ROLE_LABELS[r]),
        createTime: String(k.createdAt),
        ipAccessRestrictions: k.ipRestrict ? [...k.ipList] : [],
        status: k.enabled ? 'ENABLE' : 'NOT_ENABLE',
      })),
});
