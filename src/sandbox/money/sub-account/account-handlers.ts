/**
 * Spec 4.9 list, create and asset (master only; shapes spec 2.12). The list's createTime is a
 * string and the create answer's a number, as in the spec's samples. Sub-accounts list in order
 * of creation; the e-mail filter is an exact, case-insensitive match.
 */
import type { SandboxAccount } from '../../contracts.ts';
import { AccountRegistryError } from '../../accounts/registry-errors.ts';
import { defineHandlers } from '../../http/route-types.ts';
import { balancesOf, param, requireMaster, subOf } from './access.ts';
import { subAccountErrors } from './errors.ts';
import { pageOf } from './window.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const view = (a: SandboxAccount) => ({ createTime: String(a.createdAt), email: a.email, isFreeze: a.frozen });

export const accountHandlers = defineHandlers({
  'subAccount.list': (ctx) => {
    const master = requireMaster(ctx);
    const email = param<string>(ctx, 'email')?.trim().toLowerCase();
    const subs = ctx.sandbox.accounts.subAccountsOf(master.id).filter((a) => email === undefined || email === '' || a.email.toLowerCase() === email);
    return { subAccounts: pageOf(subs, param<number>(ctx, 'page') ?? 1, param<number>(ctx, 'limit') ?? 10).map(view), total: subs.length };
  },

  'subAccount.create': (ctx) => {
    const master = requireMaster(ctx);
    const email = String(ctx.params['accountName']).trim();
    if (!EMAIL.test(email)) throw subAccountErrors.invalid('accountName', 'must be an e-mail address');
    if (ctx.sandbox.accounts.findByEmail(email)) throw subAccountErrors.invalid('accountName', `an account with e-mail '${email}' already exists`);
    const max = ctx.sandbox.config.maxSubAccounts;
    if (ctx.sandbox.accounts.subAccountsOf(master.id).length >= max) throw subAccountErrors.limit(max);
    try {
      const sub = ctx.sandbox.accounts.createAccount({ email, masterId: master.id, createdAt: ctx.now });
      return { ...view(sub), createTime: sub.createdAt };
    } catch (err) {
      // A race with the admin API between the checks above and the creation.
      if (err instanceof AccountRegistryError && err.code === 'SUB_ACCOUNT_LIMIT') throw subAccountErrors.limit(max);
      if (err instanceof AccountRegistryError) throw subAccountErrors.invalid('accountName', err.message);
      throw err;
    }
  },

  'subAccount.asset': (ctx) => {
    const master = requireMaster(ctx);
    const sub = subOf(ctx, master, String(ctx.params['email']));
    return { balances: balancesOf(ctx).all(sub.id).map((b) => ({ asset: b.asset, free: b.free, locked: b.locked })) };
  },
});
