/**
 * Withdraw apply checks (spec 4.2 rule 1, 2.8 network fields, 2.7 limits), in this order, each
 * with the error the sandbox answers (HTTP 400):
 *
 *   unknown coin / network                     -1025 parameter 'coin' / 'network' is not valid
 *   account frozen                             -1010 This action disabled is on this account. (spec 7.4)
 *   withdrawEnable false                       -1010 Withdrawals of <coin> on <network> are suspended.
 *   not in the address whitelist               -1010 Withdrawal address is not in the withdrawal address whitelist ...
 *   amount <= 0, < withdrawMin, > withdrawMax,
 *     not a multiple of withdrawIntegerMultiple -1025 parameter 'amount' is not valid: <why>
 *   over a daily/monthly/annual withdraw limit -1010 Withdrawal exceeds the <period> withdraw limit ...
 *   free < amount + withdrawFee                -1131 Balance insufficient ...
 *
 * The fee is on top: `amount` is what arrives at the address; amount + fee leaves the balance.
 */
import { dec, toWire, type Dec } from '../../../core/money/decimal.ts';
import { VenueError, venueErrors, type SandboxState } from '../../http/route-types.ts';
import { accountLimitsOf } from '../account/limits.ts';
import { phpValue } from '../account/valuation.ts';
import { requireNetwork, type NetworkConfig } from './coins.ts';
import type { WithdrawWhitelist } from './whitelist.ts';

export interface WithdrawRequest {
  coin: string;
  network: string;
  address: string;
  addressTag?: string | undefined;
  amount: string;
  withdrawOrderId?: string | undefined;
}

export interface CheckedWithdrawal {
  coin: string;
  net: NetworkConfig;
  amount: string;
  fee: string;
  /** amount + fee: what leaves the balance. */
  total: string;
  /** Peso value of `amount` charged against the withdraw limits. */
  php: string;
}

function checkAmount(amount: Dec, net: NetworkConfig, coin: string): void {
  const bad = (why: string) => venueErrors.invalidParam('amount', why);
  if (!amount.gt(0)) throw bad('must be greater than 0');
  if (amount.lt(dec(net.withdrawMin))) throw bad(`below the minimum withdrawal ${net.withdrawMin} ${coin}`);
  if (amount.gt(dec(net.withdrawMax))) throw bad(`above the maximum withdrawal ${net.withdrawMax} ${coin}`);
  const step = dec(net.withdrawIntegerMultiple);
  if (step.gt(0) && !amount.mod(step).isZero()) throw bad(`not a multiple of withdrawIntegerMultiple ${net.withdrawIntegerMultiple}`);
}

export function checkWithdrawal(state: SandboxState, whitelist: WithdrawWhitelist, accountId: string, req: WithdrawRequest, now: number): CheckedWithdrawal {
  const { asset, net } = requireNetwork(state.config, req.coin, req.network);
  const coin = asset.coin;
  if (state.accounts.getAccount(accountId)?.frozen) throw new VenueError(-1010, 'This action disabled is on this account.');
  if (!net.withdrawEnable) throw new VenueError(-1010, `Withdrawals of ${coin} on ${net.network} are suspended.`);
  const target = { coin, network: net.network, address: req.address, addressTag: req.addressTag };
  if (!whitelist.allows(accountId, target)) {
    const tag = req.addressTag ? ` addressTag ${req.addressTag}` : '';
    throw new VenueError(-1010, `Withdrawal address is not in the withdrawal address whitelist: coin ${coin} network ${net.network} address ${req.address}${tag}. Add the combination to the whitelist first.`);
  }
  const amount = dec(req.amount, 'amount');
  checkAmount(amount, net, coin);
  const php = phpValue(state.services, coin, toWire(amount));
  const over = accountLimitsOf(state).check(accountId, { book: 'account', kind: 'totalWithdraw', amount: php, now });
  if (over) throw new VenueError(-1010, `Withdrawal exceeds the ${over.period} withdraw limit: ${php} PHP requested, ${over.remaining} PHP of ${over.limit} PHP remaining.`);
  const fee = dec(net.withdrawFee);
  const total = amount.plus(fee);
  const free = state.services.balances?.get(accountId, coin).free ?? '0';
  if (dec(free).lt(total)) throw new VenueError(-1131, `Balance insufficient: ${toWire(total)} ${coin} needed (amount ${toWire(amount)} + fee ${toWire(fee)}), ${free} free.`);
  return { coin, net, amount: toWire(amount), fee: toWire(fee), total: toWire(total), php };
}
