/**
 * Spec 4.11 Legacy sell-order endpoints (discouraged; compatible only with the old interface):
 * sell orders, field validation, payout outlets, their categories and fees. Weight 1 each;
 * `ACCESS-*` signature headers (notes 2.4) over a compact JSON body, or the query for GETs.
 *
 * Response bodies are not shown (spec 2.14, notes 10), so they are decoded loosely: any JSON object
 * for a record, an object or an array for a listing. The examples are plausible, not documented.
 */
import { z } from 'zod';
import { p } from '../../params/dsl.ts';
import { defineEndpoint } from '../types.ts';

/** One record: any JSON object, members kept as sent. */
export const zLegacyRecord = z.looseObject({});
/** A listing: an array, or an object wrapping one (the wrapper is not shown). */
export const zLegacyListing = z.union([z.array(z.unknown()), z.looseObject({})]);

const E164 = /^\+[1-9]\d{1,14}$/;

export const createSellOrder = defineEndpoint({
  id: 'legacyV4.createSellOrder',
  area: 'legacyV4',
  name: 'createSellOrder',
  summary: 'Sell digital assets for cash through a payout outlet (legacy, discouraged)',
  spec: '4.11',
  method: 'POST',
  path: '/openapi/migration/v4/sellorder',
  security: 'LEGACY_V4',
  weight: 1,
  envelope: 'bare',
  encoding: 'json',
  idempotent: false,
  clientId: { param: 'external_transaction_id', maxLength: 19, charset: 'digits' },
  params: {
    payment_outlet: p.string({ doc: 'payout outlet id, e.g. citi_SWIFTPAY_PESONET' }).req(),
    base_amount: p.decimal({ doc: 'amount to sell' }).req(),
    currency: p.string({ doc: 'currency of the sell order' }).req(),
    bank_account_number: p.string({ doc: 'cash-out account number' }).req(),
    bank_account_name: p.string({ doc: 'cash-out account name' }).req(),
    recipient_phone_number: p.string({ doc: 'recipient phone number' }).req(),
    recipient_bank_code: p.string({ doc: 'recipient bank code' }),
    external_transaction_id: p.string({ pattern: /^\d+$/, patternText: 'a number', doc: 'unique id, a number; generated when omitted' }),
    pay_with_wallet: p.string({ doc: 'wallet code paying the order' }),
    sender_first_name: p.string(),
    sender_middle_name: p.string(),
    sender_last_name: p.string(),
    sender_address: p.string(),
    sender_city: p.string(),
    sender_province: p.string(),
    sender_country: p.string(),
    sender_postal_code: p.string(),
    sender_phone: p.string(),
    sender_email: p.string(),
    sender_company_name: p.string(),
  },
  response: zLegacyRecord,
  example: {
    params: {
      payment_outlet: 'citi_SWIFTPAY_PESONET',
      base_amount: '10',
      currency: 'PHP',
      bank_account_number: '9163011937',
      bank_account_name: 'Mike Santos',
      recipient_phone_number: '9163011937',
      external_transaction_id: '12121212212121212',
    },
    response: {
      'sell-order': {
        id: '5b1a0d8e6c3f4a2f9d7e1c0b8a6f4e21',
        status: 'pending',
        payment_outlet: 'citi_SWIFTPAY_PESONET',
        currency: 'PHP',
        base_amount: '10',
        fee: '0',
        external_transaction_id: '12121212212121212',
        created_at: '2023-08-17T03:10:00Z',
      },
    },
  },
});

export const getSellOrder = defineEndpoint({
  id: 'legacyV4.getSellOrder',
  area: 'legacyV4',
  name: 'getSellOrder',
  summary: 'One sell order (legacy, discouraged)',
  spec: '4.11',
  method: 'GET',
  path: '/openapi/migration/v4/sellorder/{sell_order_id}',
  security: 'LEGACY_V4',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: { sell_order_id: p.string({ inPath: true, doc: 'the sell order' }).req() },
  response: zLegacyRecord,
  example: {
    params: { sell_order_id: '5b1a0d8e6c3f4a2f9d7e1c0b8a6f4e21' },
    response: {
      'sell-order': {
        id: '5b1a0d8e6c3f4a2f9d7e1c0b8a6f4e21',
        status: 'completed',
        payment_outlet: 'citi_SWIFTPAY_PESONET',
        currency: 'PHP',
        base_amount: '10',
        fee: '0',
        external_transaction_id: '12121212212121212',
        created_at: '2023-08-17T03:10:00Z',
      },
    },
  },
});

export const validateField = defineEndpoint({
  id: 'legacyV4.validateField',
  area: 'legacyV4',
  name: 'validateField',
  summary: 'Check an account or mobile number before a sell order (legacy, discouraged)',
  spec: '4.11',
  method: 'POST',
  path: '/openapi/migration/v4/validate-field',
  security: 'LEGACY_V4',
  weight: 1,
  envelope: 'bare',
  encoding: 'json',
  // A check with no effect, although sent as POST.
  idempotent: true,
  params: {
    field_type: p.enum(['account_number', 'mobile_number'], { doc: 'what to validate' }),
    account_number: p.string({ doc: 'with field_type account_number' }),
    account_type: p.string({ doc: 'payout outlet id, with field_type account_number' }),
    mobile_number: p.string({ pattern: E164, patternText: 'E.164, e.g. +639171234567', doc: 'with field_type mobile_number' }),
    region: p.enum(['PH', 'TH'], { doc: 'region of the mobile number' }),
  },
  response: zLegacyRecord,
  example: {
    params: { field_type: 'mobile_number', mobile_number: '+639171234567', region: 'PH' },
    response: { is_valid: true },
  },
});

export const payoutOutlets = defineEndpoint({
  id: 'legacyV4.payoutOutlets',
  area: 'legacyV4',
  name: 'payoutOutlets',
  summary: 'Payout outlets for sell orders, or one by id (legacy, discouraged)',
  spec: '4.11',
  method: 'GET',
  path: '/openapi/migration/v4/payout-outlets/{id?}',
  security: 'LEGACY_V4',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    id: p.string({ inPath: true, doc: 'one payout outlet' }),
    outlet_category: p.string({ doc: 'category id filter' }),
    name: p.string({ doc: 'name filter' }),
    region: p.string({ doc: 'region filter' }),
    is_enabled: p.bool({ doc: 'whether disabled outlets are included' }),
  },
  response: zLegacyListing,
  example: {
    params: { outlet_category: 'bank', region: 'PH' },
    response: {
      'payout-outlets': [
        { id: 'citi_SWIFTPAY_PESONET', name: 'Citibank', outlet_category: 'bank', region: 'PH', is_enabled: true },
      ],
    },
  },
});

export const payoutOutletCategories = defineEndpoint({
  id: 'legacyV4.payoutOutletCategories',
  area: 'legacyV4',
  name: 'payoutOutletCategories',
  summary: 'Payout outlet categories, or one by id (legacy, discouraged)',
  spec: '4.11',
  method: 'GET',
  path: '/openapi/migration/v4/payout-outlet-categories/{id?}',
  security: 'LEGACY_V4',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: { id: p.string({ inPath: true, doc: 'one category; all when omitted' }) },
  response: zLegacyListing,
  example: {
    params: {},
    response: {
      'payout-outlet-categories': [
        { id: 'bank', name: 'Bank' },
        { id: 'e-wallet', name: 'E-wallet' },
      ],
    },
  },
});

export const payoutOutletFees = defineEndpoint({
  id: 'legacyV4.payoutOutletFees',
  area: 'legacyV4',
  name: 'payoutOutletFees',
  summary: "A payout outlet's current fees (legacy, discouraged)",
  spec: '4.11',
  method: 'GET',
  path: '/openapi/migration/v4/payout-outlet-fees',
  security: 'LEGACY_V4',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    payment_outlet: p.string({ doc: 'the payout outlet' }).req(),
    currency: p.string({ doc: 'the currency' }).req(),
  },
  response: zLegacyListing,
  example: {
    params: { payment_outlet: 'citi_SWIFTPAY_PESONET', currency: 'PHP' },
    response: {
      'payout-outlet-fees': [{ payment_outlet: 'citi_SWIFTPAY_PESONET', currency: 'PHP', amount: '10', fee_type: 'fixed' }],
    },
  },
});

export const legacyV4Endpoints = {
  createSellOrder,
  getSellOrder,
  validateField,
  payoutOutlets,
  payoutOutletCategories,
  payoutOutletFees,
} as const;
