/**
 * `POST openapi/fiat/v1/cash-out` (spec 4.8, 7.6). Checks in this order: account frozen (88010002),
 * currency PHP and a fresh internalOrderId (-1025), known channel and subject (88010008), amount
 * positive with at most the channel's decimals (-1025), channel minimum / maximum
 * (88010003 / 88010004), the account's daily / monthly / annual usage of the channel, then the
 * account's own cash-out and total-withdraw limits (`services.accountLimits`) (88010005 / 6 / 7), a PENDING order of the account (88010012), free PHP for amount + fee
 * (88010013). Then amount + fee leave the free balance (balanceUpdate FIAT_WITHDRAWAL; a ledger
 * entry `processing` under the externalOrderId), the amount is charged to the account limits, and
 * the order is PENDING until it settles (fiat-desk.ts).
 */
import { D } from '../../../core/money/decimal.ts';
import { venueErrors } from '../../http/error-codes.ts';
import { okEnvelope, type HandlerContext } from '../../http/route-types.ts';
import { accountLimitsOf } from '../account/limits.ts';
import { freeOf, moveLegs } from '../ledger/move-legs.ts';
import { CHANNELS, FIAT_CURRENCY, feeFor, findSubject, type ChannelName } from './channels.ts';
import { ACCOUNT_LIMIT_KINDS, type FiatDesk } from './fiat-desk.ts';
import { fiatFailures } from './fiat-errors.ts';

export function cashOut(ctx: HandlerContext, desk: FiatDesk): Record<string, unknown> {
  const account = ctx.account;
  if (!account || account.frozen) throw fiatFailures.accountDisabled();
  const p = ctx.params;
  const internalOrderId = String(p['internalOrderId']);
  if (String(p['currency']).toUpperCase() !== FIAT_CURRENCY) throw venueErrors.invalidParam('currency', 'only PHP is supported');
  if (desk.find(account.id, internalOrderId)) throw venueErrors.invalidParam('internalOrderId', 'an order with this internalOrderId exists');
  const channelName = String(p['channelName']) as ChannelName;
  const subject = findSubject(channelName, String(p['channelSubject']));
  if (!subject) throw fiatFailures.methodUnavailable(`${channelName}/${String(p['channelSubject'])}`);
  const terms = CHANNELS[channelName];
  const amount = new D(String(p['amount']));
  if (!amount.isPositive() || amount.isZero()) throw venueErrors.invalidParam('amount', 'must be greater than 0');
  if (amount.decimalPlaces() > terms.precision) throw venueErrors.invalidParam('amount', `at most ${terms.precision} decimals`);
  if (amount.lt(terms.minimum)) throw fiatFailures.belowMinimum(terms.minimum);
  if (amount.gt(terms.maximum)) throw fiatFailures.aboveMaximum(terms.maximum);
  const used = desk.usage(account.id, channelName, ctx.now);
  if (used.day.plus(amount).gt(terms.dailyLimit)) throw fiatFailures.dailyLimit();
  if (used.month.plus(amount).gt(terms.monthlyLimit)) throw fiatFailures.monthlyLimit();
  if (used.year.plus(amount).gt(terms.annualLimit)) throw fiatFailures.annualLimit();
  for (const kind of ACCOUNT_LIMIT_KINDS) {
    const over = accountLimitsOf(ctx.sandbox).check(account.id, { book: 'account', kind, amount: amount.toFixed(), now: ctx.now });
    if (over) throw over.period === 'daily' ? fiatFailures.dailyLimit() : over.period === 'monthly' ? fiatFailures.monthlyLimit() : fiatFailures.annualLimit();
  }
  if (desk.hasPending(account.id)) throw fiatFailures.inProgress();
  const fee = feeFor(terms, amount);
  const total = amount.plus(fee);
  if (freeOf(ctx.sandbox, account.id, FIAT_CURRENCY).lt(total)) throw fiatFailures.insufficient();

  const extend = p['extendInfo'];
  const order = desk.create({
    internalOrderId,
    accountId: account.id,
    channel: channelName,
    subject,
    amount: amount.toFixed(),
    fee: fee.toFixed(),
    createdAt: ctx.now,
    extendInfo: extend !== null && typeof extend === 'object' && !Array.isArray(extend) ? (extend as Record<string, unknown>) : {},
  });
  moveLegs(ctx.sandbox, [{ accountId: account.id, asset: FIAT_CURRENCY, delta: total.neg() }], { time: ctx.now, business: 'FIAT_WITHDRAWAL', txId: order.externalOrderId, ledger: 'processing' });
  for (const kind of ACCOUNT_LIMIT_KINDS) accountLimitsOf(ctx.sandbox).charge(account.id, { book: 'account', kind, amount: order.amount, time: ctx.now });
  return okEnvelope({ externalOrderId: order.externalOrderId, internalOrderId });
}
