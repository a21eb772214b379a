/**
 * Spec 4.11 legacy sell-order endpoints on the sandbox (ACCESS-* signature checked by the auth
 * layer; bodies are not shown by the spec, so these follow the endpoint table's examples):
 *
 *   POST sellorder                 outlet known and enabled, currency the outlet's, base_amount
 *                                  within its min/max, external_transaction_id unused; the wallet
 *                                  pays base_amount + fee -> {'sell-order': {...}} (sell-orders.ts).
 *                                  `pay_with_wallet` is accepted and ignored (the order currency pays)
 *   GET  sellorder/{id}            {'sell-order': {...}}; unknown -2013
 *   POST validate-field            {is_valid, field_type, message}: account numbers by the outlet's
 *                                  digit count; mobile numbers +63 and 10 digits (PH), +66 and 9 (TH)
 *   GET  payout-outlets[/{id}]     {'payout-outlets': [...]} filtered by outlet_category, name
 *                                  (substring), region; disabled outlets only with is_enabled=true;
 *                                  with an id {'payout-outlet': {...}}
 *   GET  payout-outlet-categories[/{id}]  {'payout-outlet-categories': [...]} or {'payout-outlet-category': {...}}
 *   GET  payout-outlet-fees        {'payout-outlet-fees': [{payment_outlet, currency, amount, fee_type}]}
 *
 * Refusals: -1025 naming the parameter; insufficient balance -1131; a frozen account -1010.
 */
import { D, toWire } from '../../../core/money/decimal.ts';
import { venueErrors } from '../../http/error-codes.ts';
import { defineHandlers, type HandlerContext } from '../../http/route-types.ts';
import { VenueError } from '../../http/venue-error.ts';
import { HOUSE_ACCOUNT_ID, ShortBalanceError, moveLegs } from '../ledger/move-legs.ts';
import { OUTLET_CATEGORIES, PAYOUT_OUTLETS, feeView, findOutlet, outletView, type PayoutOutlet } from './outlets.ts';
import { sellOrderView, type SellOrderBook } from './sell-orders.ts';
import { validateField } from './validate-field.ts';

const str = (ctx: HandlerContext, name: string): string | undefined => {
  const v = ctx.params[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
};

function outletParam(ctx: HandlerContext, name: string): PayoutOutlet {
  const outlet = findOutlet(str(ctx, name) ?? '');
  if (!outlet) throw venueErrors.invalidParam(name, 'no such payout outlet');
  return outlet;
}

function owner(ctx: HandlerContext): string {
  if (!ctx.account) throw venueErrors.unknown();
  if (ctx.account.frozen) throw new VenueError(-1010, 'This action disabled is on this account.');
  return ctx.account.id;
}

export function legacyV4Handlers(book: SellOrderBook) {
  return defineHandlers({
    'legacyV4.createSellOrder': (ctx) => {
      const accountId = owner(ctx);
      const outlet = outletParam(ctx, 'payment_outlet');
      if (!outlet.is_enabled) throw venueErrors.invalidParam('payment_outlet', 'the payout outlet is disabled');
      const currency = String(ctx.params['currency']).toUpperCase();
      if (currency !== outlet.currency) throw venueErrors.invalidParam('currency', `the outlet pays out ${outlet.currency}`);
      const amount = new D(String(ctx.params['base_amount']));
      if (amount.lt(outlet.min_amount) || amount.gt(outlet.max_amount)) throw venueErrors.invalidParam('base_amount', `must be within ${outlet.min_amount}..${outlet.max_amount}`);
      if (amount.decimalPlaces() > 2) throw venueErrors.invalidParam('base_amount', 'at most 2 decimals');
      const externalId = str(ctx, 'external_transaction_id');
      if (externalId !== undefined && book.byExternalId(accountId, externalId)) throw venueErrors.invalidParam('external_transaction_id', 'already used');
      const fee = new D(outlet.fee);
      const order = book.add({
        accountId,
        payment_outlet: outlet.id,
        currency,
        base_amount: toWire(amount),
        fee: outlet.fee,
        external_transaction_id: externalId,
        bank_account_number: String(ctx.params['bank_account_number']),
        bank_account_name: String(ctx.params['bank_account_name']),
        recipient_phone_number: String(ctx.params['recipient_phone_number']),
        createdAt: ctx.now,
      });
      try {
        moveLegs(
          ctx.sandbox,
          [
            { accountId, asset: currency, delta: amount.plus(fee).neg() },
            { accountId: HOUSE_ACCOUNT_ID, asset: currency, delta: fee },
          ],
          { time: ctx.now, business: 'FIAT_WITHDRAWAL', txId: order.id, ledger: 'processing' },
        );
      } catch (err) {
        book.remove(order.id);
        if (err instanceof ShortBalanceError) throw new VenueError(-1131, `Balance insufficient: ${toWire(amount.plus(fee))} ${currency} needed.`);
        throw err;
      }
      return sellOrderView(order);
    },

    'legacyV4.getSellOrder': (ctx) => {
      const order = book.get(String(ctx.params['sell_order_id']), owner(ctx), ctx.now);
      if (!order) throw new VenueError(-2013, 'Order does not exist.');
      return sellOrderView(order);
    },

    'legacyV4.validateField': (ctx) => validateField(ctx.params),

    'legacyV4.payoutOutlets': (ctx) => {
      const id = str(ctx, 'id');
      if (id !== undefined) return { 'payout-outlet': outletView(outletParam(ctx, 'id')) };
      const category = str(ctx, 'outlet_category');
      const name = str(ctx, 'name')?.toLowerCase();
      const region = str(ctx, 'region')?.toUpperCase();
      const withDisabled = ctx.params['is_enabled'] === true;
      const rows = PAYOUT_OUTLETS.filter(
        (o) =>
          (withDisabled || o.is_enabled) &&
          (category === undefined || o.outlet_category === category) &&
          (name === undefined || o.name.toLowerCase().includes(name)) &&
          (region === undefined || o.region === region),
      );
      return { 'payout-outlets': rows.map(outletView) };
    },

    'legacyV4.payoutOutletCategories': (ctx) => {
      const id = str(ctx, 'id');
      if (id === undefined) return { 'payout-outlet-categories': OUTLET_CATEGORIES };
      const one = OUTLET_CATEGORIES.find((c) => c.id === id);
      if (!one) throw venueErrors.invalidParam('id', 'no such payout outlet category');
      return { 'payout-outlet-category': one };
    },

    'legacyV4.payoutOutletFees': (ctx) => {
      const outlet = outletParam(ctx, 'payment_outlet');
      const currency = String(ctx.params['currency']).toUpperCase();
      return { 'payout-outlet-fees': currency === outlet.currency ? [feeView(outlet)] : [] };
    },
  });
}
