/**
 * Admin routes for accounts, API keys and balances (all JSON; paths relative to the prefix):
 *
 *   GET    /accounts                 every account with its keys (secrets included: local sandbox)
 *   POST   /accounts                 {email, masterId?|masterEmail?, uid?, balances?: {ASSET: "amount"}}
 *                                    -> the account; a master id makes a sub-account (max 30, spec 8.11)
 *   POST   /keys                     {accountId?|email?, apiKey?, secret?, name?, roles?: [0|2|3|4|5|6],
 *                                     ipList?, ipRestrict?, requiresWhitelist?, merchant?, enabled?} -> the key record
 *   POST   /keys/update              {apiKey, name?, roles?, ipList?, ipRestrict?, requiresWhitelist?, merchant?, enabled?}
 *   DELETE /keys/:apiKey             -> {deleted}
 *   GET    /balances?accountId=      -> [{asset, free, locked}]
 *   POST   /balances/credit          {accountId, asset, amount} -> {asset, free, locked}
 *   POST   /balances/debit           {accountId, asset, amount} -> {asset, free, locked}; 400 when free < amount
 * Balance routes answer 503 while no BalancePort is attached (the engine's plugin provides it).
 */
import { z } from 'zod';
import { keySchema, roleSchema } from '../config/schema.ts';
import type { SandboxState } from '../http/route-types.ts';
import { EMAIL_LIMIT } from '../http/value-bounds.ts';
import { zAdminAmount, zPositiveAdminAmount } from './admin-amount.ts';
import { AdminError, defineAdminRoute, type AdminRoute } from './admin-registry.ts';

// E-mail addresses within RFC 5321's length, as on the exchange routes (http/value-bounds.ts).
const zEmail = z.email().max(EMAIL_LIMIT);
const keyFields = keySchema.partial().extend({ accountId: z.string().optional(), email: zEmail.optional() });
const keyPatch = z.strictObject({
  apiKey: z.string(),
  name: z.string().optional(),
  // No defaults here: an absent field stays unchanged.
  roles: z.array(roleSchema).optional(),
  ipList: z.array(z.string().min(1)).optional(),
  ipRestrict: z.boolean().optional(),
  requiresWhitelist: z.boolean().optional(),
  merchant: z.boolean().optional(),
  enabled: z.boolean().optional(),
});
// Within the request amount bound (admin-amount.ts): more than 18 decimals answered 500.
const amountBody = z.strictObject({ accountId: z.string(), asset: z.string().min(1), amount: zPositiveAdminAmount });

function balances(state: SandboxState) {
  const port = state.services.balances;
  if (!port) throw new AdminError(503, 'no balance service is attached to this sandbox');
  return port;
}

function accountIdOf(state: SandboxState, body: { accountId?: string | undefined; email?: string | undefined }): string {
  if (body.accountId !== undefined) return state.accounts.require(body.accountId).id;
  if (body.email !== undefined) {
    const found = state.accounts.findByEmail(body.email);
    if (!found) throw new AdminError(404, `no account with e-mail ${body.email}`);
    return found.id;
  }
  throw new AdminError(400, 'accountId or email is required');
}

export const accountAdminRoutes: AdminRoute[] = [
  defineAdminRoute({
    method: 'GET',
    path: '/accounts',
    summary: 'Every account with its keys',
    handler: ({ sandbox }) => sandbox.accounts.allAccounts().map((a) => ({ ...a, keys: sandbox.accounts.keysOf(a.id) })),
  }),
  defineAdminRoute({
    method: 'POST',
    path: '/accounts',
    summary: 'Create a master or sub-account, optionally with balances',
    body: z.strictObject({
      email: zEmail,
      masterId: z.string().optional(),
      masterEmail: zEmail.optional(),
      uid: z.string().regex(/^\d{1,19}$/).optional(),
      balances: z.record(z.string(), zAdminAmount).optional(),
    }),
    handler: ({ body, sandbox }) => {
      const masterId = body.masterId ?? (body.masterEmail === undefined ? undefined : accountIdOf(sandbox, { email: body.masterEmail }));
      const entries = Object.entries(body.balances ?? {});
      const port = entries.length > 0 ? balances(sandbox) : undefined;
      const account = sandbox.accounts.createAccount({ email: body.email, masterId, id: body.uid, createdAt: sandbox.clock.now() });
      for (const [asset, amount] of entries) if (Number(amount) > 0) port?.credit(account.id, asset, amount);
      return account;
    },
  }),
  defineAdminRoute({
    method: 'POST',
    path: '/keys',
    summary: 'Create an API key (roles, IP list, whitelist requirement, merchant)',
    body: keyFields,
    handler: ({ body, sandbox }) => {
      const { accountId: _a, email: _e, ...fields } = body;
      return sandbox.accounts.createKey({ ...fields, accountId: accountIdOf(sandbox, body), createdAt: sandbox.clock.now() });
    },
  }),
  defineAdminRoute({
    method: 'POST',
    path: '/keys/update',
    summary: 'Change an API key',
    body: keyPatch,
    handler: ({ body, sandbox }) => {
      const { apiKey, ...patch } = body;
      return sandbox.accounts.updateKey(apiKey, patch);
    },
  }),
  defineAdminRoute({
    method: 'DELETE',
    path: '/keys/:apiKey',
    summary: 'Delete an API key',
    handler: ({ params, sandbox }) => ({ deleted: sandbox.accounts.deleteKey(params['apiKey'] ?? '') }),
  }),
  defineAdminRoute({
    method: 'GET',
    path: '/balances',
    summary: "An account's balances",
    body: z.strictObject({ accountId: z.string() }),
    handler: ({ body, sandbox }) => balances(sandbox).all(sandbox.accounts.require(body.accountId).id),
  }),
  defineAdminRoute({
    method: 'POST',
    path: '/balances/credit',
    summary: 'Add to a free balance',
    body: amountBody,
    handler: ({ body, sandbox }) => {
      const id = sandbox.accounts.require(body.accountId).id;
      balances(sandbox).credit(id, body.asset, body.amount);
      return { asset: body.asset, ...balances(sandbox).get(id, body.asset) };
    },
  }),
  defineAdminRoute({
    method: 'POST',
    path: '/balances/debit',
    summary: 'Remove from a free balance',
    body: amountBody,
    handler: ({ body, sandbox }) => {
      const id = sandbox.accounts.require(body.accountId).id;
      try {
        balances(sandbox).debit(id, body.asset, body.amount);
      } catch (e) {
        throw new AdminError(400, `cannot debit ${body.amount} ${body.asset}: ${(e as Error).message}`);
      }
      return { asset: body.asset, ...balances(sandbox).get(id, body.asset) };
    },
  }),
];
