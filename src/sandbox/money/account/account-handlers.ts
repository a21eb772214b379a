/**
 * `GET /openapi/v1/account` (spec 2.7 + notes 6 extras) and `GET /openapi/account/v3/crypto-accounts`.
 *
 * Account: `canDeposit`/`canTrade`/`canWithdraw` are false while the account is frozen; balances
 * are every asset the account holds or held; `token` is PHP; `daily`/`monthly`/`annually` and
 * `p2p*` come from the limits service with remaining amounts; `enableWithdrawWhitelist` is always
 * true (withdrawals need the whitelist, spec 4.2 rule 1); `updateTime` is the time of the answer
 * (the engine does not expose a last-change time).
 */
import { defineHandlers, type HandlerContext } from '../../http/route-types.ts';
import { cryptoAccountsOf } from './crypto-accounts.ts';
import { accountLimitsOf } from './limits.ts';
import { LIMIT_TOKEN } from './valuation.ts';

function accountInfo(ctx: HandlerContext) {
  const account = ctx.account;
  const id = account?.id ?? '';
  const active = !(account?.frozen ?? false);
  const limits = accountLimitsOf(ctx.sandbox);
  const main = limits.view(id, 'account', ctx.now);
  const p2p = limits.view(id, 'p2p', ctx.now);
  return {
    accountType: 'SPOT',
    canDeposit: active,
    canTrade: active,
    canWithdraw: active,
    balances: (ctx.sandbox.services.balances?.all(id) ?? []).map((b) => ({ asset: b.asset, free: b.free, locked: b.locked })),
    token: LIMIT_TOKEN,
    daily: main.daily,
    monthly: main.monthly,
    annually: main.annually,
    updateTime: ctx.now,
    email: account?.email ?? '',
    enableWithdrawWhitelist: true,
    p2pDaily: p2p.daily,
    p2pMonthly: p2p.monthly,
    p2pAnnually: p2p.annually,
  };
}

export const accountHandlers = defineHandlers({
  'account.account': accountInfo,
  'account.cryptoAccounts': (ctx) => {
    const currency = ctx.params['currency'] === undefined ? undefined : String(ctx.params['currency']).toUpperCase();
    const all = cryptoAccountsOf(ctx.sandbox, ctx.account?.id ?? '');
    return { 'crypto-accounts': currency === undefined ? all : all.filter((a) => a.currency === currency) };
  },
});
