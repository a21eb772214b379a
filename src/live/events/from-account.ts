/**
 * Account information (spec 2.7, GET /openapi/v1/account) -> one `balance` event per asset, as
 * outboundAccountPosition maps (from-account-position.ts), timed by the account's updateTime.
 */
import type { Account } from '../../exchange/codecs/account.ts';
import type { VenueBalanceEvent } from '../../ports/venue.ts';

export type AccountBalances = Pick<Account, 'balances' | 'updateTime'>;

export function fromAccount(a: AccountBalances): VenueBalanceEvent[] {
  return a.balances.map((b) => ({ kind: 'balance', asset: b.asset, free: b.free, locked: b.locked, time: a.updateTime }));
}
