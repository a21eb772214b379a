/**
 * Who may call what (spec 4.9 "(master)" / "(sub)" rows): master-only endpoints need a master
 * account's key, sub-only ones a sub-account's key (-1152 otherwise, see errors.ts), and every
 * e-mail parameter must name a sub-account of the calling master (-1025 otherwise).
 */
import type { SandboxAccount } from '../../contracts.ts';
import type { BalancePort } from '../../accounts/balance-port.ts';
import type { HandlerContext } from '../../http/route-types.ts';
import { subAccountErrors } from './errors.ts';

export function requireMaster(ctx: HandlerContext): SandboxAccount {
  const account = ctx.account;
  if (!account || account.masterId !== undefined) throw subAccountErrors.masterOnly(ctx.def.id);
  return account;
}

export function requireSub(ctx: HandlerContext): { sub: SandboxAccount; master: SandboxAccount } {
  const account = ctx.account;
  if (!account || account.masterId === undefined) throw subAccountErrors.subOnly(ctx.def.id);
  return { sub: account, master: ctx.sandbox.accounts.require(account.masterId) };
}

/** The sub-account of `master` with that e-mail (case-insensitive), or -1025 naming `param`. */
export function subOf(ctx: HandlerContext, master: SandboxAccount, email: string, param = 'email'): SandboxAccount {
  const found = ctx.sandbox.accounts.findByEmail(email);
  if (!found || found.masterId !== master.id) throw subAccountErrors.invalid(param, `'${email}' is not a sub-account of this master account`);
  return found;
}

/** The master itself or one of its sub-accounts (a transfer side or a history filter). */
export function memberOf(ctx: HandlerContext, master: SandboxAccount, email: string, param: string): SandboxAccount {
  if (email.trim().toLowerCase() === master.email.toLowerCase()) return master;
  return subOf(ctx, master, email, param);
}

export function balancesOf(ctx: HandlerContext): BalancePort {
  const port = ctx.sandbox.services.balances;
  if (!port) throw subAccountErrors.noBalances();
  return port;
}

export function param<T>(ctx: HandlerContext, name: string): T | undefined {
  return ctx.params[name] as T | undefined;
}
