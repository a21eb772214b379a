/**
 * Spec 4.3 Payment requests (SIGNED, USER_DATA): create, retrieve, cancel, remind.
 * Shapes from spec 2.13; limits from spec 8.9 (limit max 1000).
 */
import { z } from 'zod';
import { zIdText, zDec, zNum, obj } from '../../codecs/common.ts';
import { p } from '../../params/dsl.ts';
import { defineEndpoint } from '../types.ts';

/**
 * `expires_at` / fiat `startDate`: an ISO 8601 datetime (`2016-10-20T13:00:00.000000Z`) or a delta
 * from now in w/d/h/m/s units (`1w`, `3d`, `2h`, `32m`, `5s`; fiat writes a combined `1w 3d 2h 32m 5s`).
 * Shared by the merchant and fiat areas, which use the same notation.
 */
export const TIME_TEXT_PATTERN =
  /^(\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?|\d+[wdhms]( ?\d+[wdhms])*)$/;
export const TIME_TEXT_WORDS = 'an ISO 8601 datetime or a time delta such as 1w, 3d, 2h, 32m, 5s';

/** Collector codes of spec 2.13; closed methods are unavailable, so the list is documentation only. */
const COLLECTORS_DOC = 'JSON array text of collector codes: service_peso_wallet, CEBL, MLH, PLWN';

export const PAYMENT_REQUEST_STATUSES = ['pending', 'fully_paid', 'expired', 'canceled'] as const;

export const zPaymentRequest = obj({
  message: z.string(),
  id: zIdText,
  invoice: zIdText,
  amount: zDec,
  currency: z.string(),
  status: z.enum(PAYMENT_REQUEST_STATUSES),
  // ms timestamps carried as strings (spec 2.13): normalised to numbers.
  created_at: zNum,
  updated_at: zNum,
  expires_at: zNum,
  /** A string holding a JSON array (`["service_peso_wallet"]`), kept verbatim. */
  supported_payment_collectors: z.string(),
  payment_url: z.string(),
  payer_contact_info: z.string(),
});
export type PaymentRequest = z.infer<typeof zPaymentRequest>;

/** `{ 'payment-request': {...} }`; a list query may carry an array under the same key. */
export const zPaymentRequestOne = obj({ 'payment-request': zPaymentRequest });
export const zPaymentRequestAny = obj({ 'payment-request': z.union([zPaymentRequest, z.array(zPaymentRequest)]) });

const sampleRequest = {
  message: 'Dinner split, March 28',
  id: '1433341829953096704',
  invoice: '1433341829953096704',
  amount: '20',
  currency: 'PHP',
  status: 'pending',
  created_at: '1685603661217',
  updated_at: '1685603661217',
  expires_at: '1686208461219',
  supported_payment_collectors: '["service_peso_wallet"]',
  payment_url: 'https://pay.example.com/payment/invoice/1433341829953096704',
  payer_contact_info: 'payer@example.com',
} as const;

export const createPaymentRequest = defineEndpoint({
  id: 'paymentRequest.createPaymentRequest',
  area: 'paymentRequest',
  name: 'createPaymentRequest',
  summary: 'Create a payment request sent to a payer',
  spec: '4.3',
  method: 'POST',
  path: '/openapi/v3/payment-request/payment-requests',
  security: 'USER_DATA',
  weight: 1,
  envelope: 'bare',
  encoding: 'form',
  idempotent: false,
  params: {
    payer_contact_info: p.string({ doc: 'where the request is sent, typically an email' }).req(),
    receiving_account: p.string({ doc: 'token (PHP) or balance id from crypto-accounts `id`' }).req(),
    amount: p.decimal({ doc: 'requested amount' }).req(),
    message: p.string({ doc: 'message attached to the request' }).req(),
    supported_payment_collectors: p.list({ doc: COLLECTORS_DOC }),
    expires_at: p.string({
      pattern: TIME_TEXT_PATTERN,
      patternText: TIME_TEXT_WORDS,
      defaultValue: '7d',
      doc: 'expiry: ISO 8601 or delta (1w, 3d, 2h, 32m, 5s); default 7 days',
    }),
  },
  response: zPaymentRequestOne,
  example: {
    params: {
      payer_contact_info: 'payer@example.com',
      receiving_account: 'PHP',
      amount: '20',
      message: 'Dinner split, March 28',
      supported_payment_collectors: ['service_peso_wallet'],
      expires_at: '1w',
    },
    response: { 'payment-request': sampleRequest },
  },
});

export const getPaymentRequests = defineEndpoint({
  id: 'paymentRequest.getPaymentRequests',
  area: 'paymentRequest',
  name: 'getPaymentRequests',
  summary: 'One payment request by id, or a list by time range',
  spec: '4.3',
  method: 'GET',
  path: '/openapi/v3/payment-request/get-payment-request',
  security: 'USER_DATA',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    id: p.string({ doc: 'one payment request' }),
    start_time: p.long({ doc: 'range start, ms' }),
    end_time: p.long({ doc: 'range end, ms' }),
    limit: p.int({ min: 1, max: 1000, defaultValue: 500, doc: 'records, default 500, max 1000' }),
  },
  response: zPaymentRequestAny,
  example: { params: { id: '1433341829953096704' }, response: { 'payment-request': sampleRequest } },
});

export const deletePaymentRequest = defineEndpoint({
  id: 'paymentRequest.deletePaymentRequest',
  area: 'paymentRequest',
  name: 'deletePaymentRequest',
  summary: 'Cancel a payment request (status becomes canceled)',
  spec: '4.3',
  method: 'POST',
  path: '/openapi/v3/payment-request/delete-payment-request',
  security: 'USER_DATA',
  weight: 1,
  envelope: 'bare',
  encoding: 'form',
  idempotent: false,
  params: { id: p.string({ doc: 'payment request to cancel' }).req() },
  response: zPaymentRequestOne,
  example: {
    params: { id: '1433341829953096704' },
    response: { 'payment-request': { ...sampleRequest, status: 'canceled', updated_at: '1685690061217' } },
  },
});

export const paymentRequestReminder = defineEndpoint({
  id: 'paymentRequest.paymentRequestReminder',
  area: 'paymentRequest',
  name: 'paymentRequestReminder',
  summary: 'Remind the payer of a payment request',
  spec: '4.3',
  method: 'POST',
  path: '/openapi/v3/payment-request/payment-request-reminder',
  security: 'USER_DATA',
  weight: 1,
  envelope: 'bare',
  encoding: 'form',
  idempotent: false,
  params: { id: p.string({ doc: 'payment request to remind about' }).req() },
  // The body is the bare JSON value `true`.
  response: z.boolean(),
  example: { params: { id: '1433341829953096704' }, response: true },
});

export const paymentRequestEndpoints = {
  createPaymentRequest,
  getPaymentRequests,
  deletePaymentRequest,
  paymentRequestReminder,
} as const;
