import { describe, expect, it } from 'vitest';
import { findEndpoint } from '../../exchange/endpoints/index.ts';
import type { AnyEndpoint } from '../../exchange/endpoints/types.ts';
import { checkRawValues, checkValueBounds, JSON_TEXT_LIMIT, mayRepeat, TEXT_LIMIT, textLimit } from './value-bounds.ts';
import { VenueError } from './venue-error.ts';

const def = (id: string): AnyEndpoint => findEndpoint(id) as AnyEndpoint;
const codeOf = (f: () => void): number | undefined => {
  try {
    f();
  } catch (e) {
    return e instanceof VenueError ? e.code : -1;
  }
  return undefined;
};

describe('value bounds of every route (issue 24)', () => {
  it('lets list parameters repeat and refuses any other repeated key', () => {
    expect(mayRepeat(def('general.exchangeInfo'), 'symbols')).toBe(true);
    expect(mayRepeat(def('market.ticker24hr'), 'symbols')).toBe(true);
    expect(mayRepeat(def('spot.newOrder'), 'newClientOrderId')).toBe(false);
    expect(codeOf(() => checkRawValues(def('spot.newOrder'), {}, new Set(['newClientOrderId'])))).toBe(-1025);
    expect(codeOf(() => checkRawValues(def('spot.newOrder'), {}, new Set(['undeclared'])))).toBe(-1025);
    expect(codeOf(() => checkRawValues(def('general.exchangeInfo'), {}, new Set(['symbols'])))).toBeUndefined();
  });

  it('takes the spec limit, the client-id terms, the e-mail limit or the default for text', () => {
    expect(textLimit(def('wallet.withdraw'), 'withdrawOrderId')).toBe(30);
    expect(textLimit(def('spot.newOrder'), 'newClientOrderId')).toBe(36);
    expect(textLimit(def('spot.testOrder'), 'newClientOrderId')).toBe(36);
    expect(textLimit(def('legacyV4.createSellOrder'), 'external_transaction_id')).toBe(19);
    expect(textLimit(def('paymentRequest.createPaymentRequest'), 'payer_contact_info')).toBe(254);
    expect(textLimit(def('paymentRequest.createPaymentRequest'), 'message')).toBe(TEXT_LIMIT);
    const pr = def('paymentRequest.createPaymentRequest');
    expect(codeOf(() => checkValueBounds(pr, { message: 'm'.repeat(TEXT_LIMIT) }))).toBeUndefined();
    expect(codeOf(() => checkValueBounds(pr, { message: 'm'.repeat(TEXT_LIMIT + 1) }))).toBe(-1025);
    const cashOut = def('fiat.cashOut');
    expect(codeOf(() => checkValueBounds(cashOut, { extendInfo: { recipientName: 'Juan' } }))).toBeUndefined();
    expect(codeOf(() => checkValueBounds(cashOut, { extendInfo: { remarks: 'r'.repeat(JSON_TEXT_LIMIT) } }))).toBe(-1025);
  });

  it('keeps every DECIMAL within the request amount bound', () => {
    const order = def('spot.newOrder');
    expect(codeOf(() => checkValueBounds(order, { price: '99999999999999999999.999999999999999999' }))).toBeUndefined();
    expect(codeOf(() => checkValueBounds(order, { price: '100000000000000000000' }))).toBe(-1025);
    expect(codeOf(() => checkValueBounds(order, { quantity: '0.0000000000000000001' }))).toBe(-1025);
  });
});
