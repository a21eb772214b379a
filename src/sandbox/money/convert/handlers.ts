/**
 * Spec 4.6 convert endpoints on the sandbox (envelopes of spec 1.10; failures status 10000003 with
 * a spec 7.6 message):
 *
 *   get-supported-trading-pairs  pairs.ts
 *   get-quote                    price per pricing.ts; `expiry` "10" (seconds of sandbox time)
 *   accept-quote                 source -> house, house -> target (ledger/move-legs.ts), BS CONVERT;
 *                                "Quote expired" once the quote is used or older than its expiry;
 *                                "Insufficient balance"; "Unable to fetch account information"
 *                                for a frozen account
 *   query-order-history          startTime/endTime bound createdAt; status; page/size; `total`
 *
 * "Failed to fetch liquidity, try again later" answers while nothing prices the pair or the
 * admin switched CONVERT off (check-sys-status). Parameter-shaped problems (unknown pair, amount
 * not positive, too many decimals, outside the pair's min/max, unknown quoteId) are -1025 naming
 * the parameter, as the params layer answers, since no 7.6 message describes them.
 */
import { D, toWire, type Dec } from '../../../core/money/decimal.ts';
import { venueErrors } from '../../http/error-codes.ts';
import { defineHandlers, okEnvelope, type HandlerContext } from '../../http/route-types.ts';
import { EnvelopeFailure } from '../../http/venue-error.ts';
import { hexId, type ConvertDesk } from './convert-desk.ts';
import { HOUSE_ACCOUNT_ID, ShortBalanceError, moveLegs } from '../ledger/move-legs.ts';
import { convertPairs, findPair, type ConvertPair } from './pairs.ts';
import { deskPrice, inversePrice, quoteAmounts, referencePrice, QUOTE_TTL_SECONDS } from './pricing.ts';

export const CONVERT_FAILURE = 10000003;
export const CONVERT_MESSAGES = {
  verification: 'Failed to fetch account verification information',
  expired: 'Quote expired',
  account: 'Unable to fetch account information',
  priceChanged: 'The price has changed and the updated rate must be confirmed',
  insufficient: 'Insufficient balance',
  liquidity: 'Failed to fetch liquidity, try again later',
} as const;

const fail = (message: string) => new EnvelopeFailure(CONVERT_FAILURE, message);

function accountId(ctx: HandlerContext): string {
  const account = ctx.account;
  if (!account || account.frozen) throw fail(CONVERT_MESSAGES.account);
  return account.id;
}

function amountParam(ctx: HandlerContext, name: string, places: number): Dec | undefined {
  const text = ctx.params[name];
  if (typeof text !== 'string') return undefined;
  const value = new D(text);
  if (!value.isPositive() || value.isZero()) throw venueErrors.invalidParam(name, 'must be greater than 0');
  if (value.decimalPlaces() > places) throw venueErrors.invalidParam(name, `at most ${places} decimals`);
  return value;
}

function pairOf(ctx: HandlerContext): ConvertPair {
  const source = String(ctx.params['sourceCurrency']);
  const target = String(ctx.params['targetCurrency']);
  const pair = findPair(convertPairs(ctx.sandbox.config), source, target);
  if (!pair) throw venueErrors.invalidParam('targetCurrency', `${source} cannot be converted to ${target}`);
  return pair;
}

export function convertHandlers(desk: ConvertDesk) {
  return defineHandlers({
    'convert.getSupportedTradingPairs': (ctx) =>
      okEnvelope(
        convertPairs(ctx.sandbox.config).map((p) => ({
          sourceCurrency: p.sourceCurrency,
          targetCurrency: p.targetCurrency,
          minSourceAmount: p.minSourceAmount,
          maxSourceAmount: p.maxSourceAmount,
          precision: String(p.sourcePrecision),
        })),
      ),

    'convert.getQuote': (ctx) => {
      const owner = accountId(ctx);
      const pair = pairOf(ctx);
      const sourceAmount = amountParam(ctx, 'sourceAmount', pair.sourcePrecision);
      const targetAmount = amountParam(ctx, 'targetAmount', pair.targetPrecision);
      const reference = ctx.sandbox.config.systemStatus.CONVERT === 'off' ? undefined : referencePrice(ctx.sandbox.services.engine, pair.symbol);
      if (!reference?.isPositive()) throw fail(CONVERT_MESSAGES.liquidity);
      const price = deskPrice(pair, reference);
      const amounts = quoteAmounts(pair, price, { ...(sourceAmount ? { sourceAmount } : {}), ...(targetAmount ? { targetAmount } : {}) });
      const given = sourceAmount ? 'sourceAmount' : 'targetAmount';
      if (amounts.sourceAmount.lt(pair.minSourceAmount)) throw venueErrors.invalidParam(given, `the source amount must be at least ${pair.minSourceAmount} ${pair.sourceCurrency}`);
      if (amounts.sourceAmount.gt(pair.maxSourceAmount)) throw venueErrors.invalidParam(given, `the source amount must be at most ${pair.maxSourceAmount} ${pair.sourceCurrency}`);
      if (!amounts.targetAmount.isPositive() || amounts.targetAmount.isZero()) throw venueErrors.invalidParam(given, 'too small to buy any of the target currency');
      const q = desk.addQuote({ accountId: owner, pair, price, ...amounts, createdAt: ctx.now });
      return okEnvelope({
        quoteId: q.quoteId,
        sourceCurrency: pair.sourceCurrency,
        targetCurrency: pair.targetCurrency,
        sourceAmount: toWire(q.sourceAmount),
        price: toWire(q.price),
        targetAmount: toWire(q.targetAmount),
        expiry: String(QUOTE_TTL_SECONDS),
      });
    },

    'convert.acceptQuote': (ctx) => {
      const owner = accountId(ctx);
      const quoteId = String(ctx.params['quoteId']);
      const q = desk.quote(quoteId, owner);
      if (!q) throw venueErrors.invalidParam('quoteId', 'no such quote');
      if (q.used || ctx.now > q.expiresAt) throw fail(CONVERT_MESSAGES.expired);
      const { pair } = q;
      const orderId = hexId();
      try {
        moveLegs(
          ctx.sandbox,
          [
            { accountId: owner, asset: pair.sourceCurrency, delta: q.sourceAmount.neg() },
            { accountId: HOUSE_ACCOUNT_ID, asset: pair.sourceCurrency, delta: q.sourceAmount },
            { accountId: HOUSE_ACCOUNT_ID, asset: pair.targetCurrency, delta: q.targetAmount.neg() },
            { accountId: owner, asset: pair.targetCurrency, delta: q.targetAmount },
          ],
          { time: ctx.now, business: 'CONVERT', txId: orderId },
        );
      } catch (err) {
        if (err instanceof ShortBalanceError) throw fail(CONVERT_MESSAGES.insufficient);
        throw err;
      }
      q.used = true;
      desk.addOrder({
        orderId,
        quoteId: q.quoteId,
        accountId: owner,
        sourceCurrency: pair.sourceCurrency,
        targetCurrency: pair.targetCurrency,
        sourceAmount: toWire(q.sourceAmount),
        targetAmount: toWire(q.targetAmount),
        price: toWire(q.price),
        inversePrice: inversePrice(q.price),
        status: 'SUCCESS',
        createdAt: ctx.now,
      });
      return okEnvelope({ orderId, status: 'SUCCESS' });
    },

    'convert.queryOrderHistory': (ctx) => {
      const owner = accountId(ctx);
      const { startTime, endTime, status } = ctx.params as { startTime?: number; endTime?: number; status?: string };
      const page = typeof ctx.params['page'] === 'number' ? ctx.params['page'] : 1;
      const size = typeof ctx.params['size'] === 'number' ? ctx.params['size'] : 20;
      const matching = desk
        .ordersOf(owner)
        .filter((o) => (startTime === undefined || o.createdAt >= startTime) && (endTime === undefined || o.createdAt <= endTime))
        .filter((o) => status === undefined || o.status === status);
      const rows = matching.slice((page - 1) * size, page * size).map((o) => ({
        id: o.id,
        orderId: o.orderId,
        quoteId: o.quoteId,
        userId: o.accountId,
        sourceCurrency: o.sourceCurrency,
        sourceCurrencyIcon: '',
        targetCurrency: o.targetCurrency,
        targetCurrencyIcon: '',
        sourceAmount: o.sourceAmount,
        targetAmount: o.targetAmount,
        price: o.price,
        status: o.status,
        createdAt: String(o.createdAt),
        errorCode: '',
        errorMessage: '',
        inversePrice: o.inversePrice,
      }));
      return okEnvelope(rows, { total: matching.length });
    },
  });
}
