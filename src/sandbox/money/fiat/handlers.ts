/**
 * Spec 4.8 fiat endpoints on the sandbox (JSON bodies; envelopes of spec 1.10):
 *
 *   support-channel  the catalogue of channels.ts, filtered by channel / subject; fee tier picked
 *                    by `amount`; remaining limits of the caller (channel and account limits);
 *                    maxWithdrawBalance = free PHP
 *                    (transactionType -1 only, enforced by the params layer; currency PHP only)
 *   cash-out         cash-out.ts
 *   details          one order by internalOrderId (-1025 when unknown)
 *   history v1 / v2  history.ts
 *
 * Every call first settles the orders whose delay has passed (fiat-desk.ts).
 */
import { D, toWire } from '../../../core/money/decimal.ts';
import { venueErrors } from '../../http/error-codes.ts';
import { defineHandlers, okEnvelope, type HandlerContext } from '../../http/route-types.ts';
import { freeOf } from '../ledger/move-legs.ts';
import { cashOut } from './cash-out.ts';
import { FIAT_CURRENCY, SUBJECTS } from './channels.ts';
import type { FiatDesk } from './fiat-desk.ts';
import { fiatFailures } from './fiat-errors.ts';
import { fiatHistory } from './history.ts';
import { channelView, orderView } from './views.ts';

function owner(ctx: HandlerContext, desk: FiatDesk): string {
  desk.settle(ctx.now);
  const account = ctx.account;
  if (!account || account.frozen) throw fiatFailures.accountDisabled();
  return account.id;
}

export function fiatHandlers(desk: FiatDesk) {
  return defineHandlers({
    'fiat.supportChannel': (ctx) => {
      const accountId = owner(ctx, desk);
      if (String(ctx.params['currency']).toUpperCase() !== FIAT_CURRENCY) throw venueErrors.invalidParam('currency', 'only PHP is supported');
      const channel = ctx.params['transactionChannel'];
      const subject = typeof ctx.params['transactionSubject'] === 'string' ? ctx.params['transactionSubject'].toLowerCase() : undefined;
      const amount = typeof ctx.params['amount'] === 'string' ? ctx.params['amount'] : '0';
      const balance = toWire(D.max(0, freeOf(ctx.sandbox, accountId, FIAT_CURRENCY)));
      const rows = SUBJECTS.filter((s) => (channel === undefined || s.channel === channel) && (subject === undefined || s.subject === subject)).map((s) =>
        channelView(s, amount, desk.remainingLimits(accountId, s.channel, ctx.now), balance),
      );
      return okEnvelope(rows);
    },
    'fiat.cashOut': (ctx) => {
      owner(ctx, desk);
      return cashOut(ctx, desk);
    },
    'fiat.details': (ctx) => {
      const accountId = owner(ctx, desk);
      const order = desk.find(accountId, String(ctx.params['internalOrderId']));
      if (!order) throw venueErrors.invalidParam('internalOrderId', 'no such order');
      return okEnvelope(orderView(order));
    },
    'fiat.historyV1': (ctx) => fiatHistory(ctx, desk, owner(ctx, desk)),
    'fiat.historyV2': (ctx) => fiatHistory(ctx, desk, owner(ctx, desk)),
  });
}
