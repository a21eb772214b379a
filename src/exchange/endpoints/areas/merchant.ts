/**
 * Spec 4.10 Merchant invoicing: create, retrieve, cancel. Merchant signature headers (spec 5.4,
 * notes 2.3). Invoice shape spec 2.13; events of spec 6.1 are sent to the merchant, not listed here.
 *
 * Spec 1.6 gives the merchant endpoints a JSON body. The official request collection sends form
 * text instead (notes 2.3); that variant is a client setting, not a second table row.
 */
import { z } from 'zod';
import { zDec, zIdText, zNum, obj } from '../../codecs/common.ts';
import { p } from '../../params/dsl.ts';
import { defineEndpoint } from '../types.ts';
import { PAYMENT_REQUEST_STATUSES, TIME_TEXT_PATTERN, TIME_TEXT_WORDS } from './payment-request.ts';

/** Invoices share the payment request states (spec 3.2). */
export const INVOICE_STATUSES = PAYMENT_REQUEST_STATUSES;

export const zInvoice = obj({
  id: zIdText,
  amount: zDec,
  amount_due: zDec,
  currency: z.string(),
  status: z.enum(INVOICE_STATUSES),
  external_transaction_id: z.string(),
  // ms timestamps carried as strings: normalised to numbers.
  created_at: zNum,
  updated_at: zNum,
  expires_at: zNum,
  /** A string holding a JSON array, kept verbatim. */
  supported_payment_collectors: z.string(),
  payment_url: z.string(),
  expires_in_seconds: zNum,
  /** Empty when not applicable. */
  incoming_address: z.string().nullish(),
});
export type Invoice = z.infer<typeof zInvoice>;

export const zInvoiceOne = obj({ invoice: zInvoice });
export const zInvoiceList = obj({ invoice: z.array(zInvoice) });

const sampleInvoice = {
  id: '1783304323757262592',
  amount: '100',
  amount_due: '100',
  currency: 'PHP',
  status: 'pending',
  external_transaction_id: 'order-20230727-0001',
  created_at: '1690453041000',
  updated_at: '1690453041000',
  expires_at: '1691057841000',
  supported_payment_collectors: '["service_peso_wallet"]',
  payment_url: 'https://pay.example.com/invoice/1783304323757262592',
  expires_in_seconds: '604800',
  incoming_address: '',
} as const;

export const createInvoice = defineEndpoint({
  id: 'merchant.createInvoice',
  area: 'merchant',
  name: 'createInvoice',
  summary: 'Create an invoice (event invoice.created follows)',
  spec: '4.10',
  method: 'POST',
  path: '/merchant-api/v1/invoices',
  security: 'MERCHANT',
  weight: 1,
  envelope: 'bare',
  encoding: 'json',
  idempotent: false,
  params: {
    amount: p.decimal({ doc: 'amount expected from the customer' }).req(),
    currency: p.string({ doc: 'currency of the invoice' }).req(),
    supported_payment_collectors: p
      .list({ doc: 'JSON array text of collector codes: service_peso_wallet, CEBL, MLH, PLWN' })
      .req(),
    external_transaction_id: p.string({ doc: 'unique per transaction' }).req(),
    expires_at: p.string({
      pattern: TIME_TEXT_PATTERN,
      patternText: TIME_TEXT_WORDS,
      doc: 'expiry: ISO 8601 UTC or delta (1w, 3d, 2h, 32m, 5s)',
    }),
  },
  response: zInvoiceOne,
  example: {
    params: {
      amount: '100',
      currency: 'PHP',
      supported_payment_collectors: ['service_peso_wallet'],
      external_transaction_id: 'order-20230727-0001',
      expires_at: '1w',
    },
    response: { invoice: sampleInvoice },
  },
});

export const getInvoices = defineEndpoint({
  id: 'merchant.getInvoices',
  area: 'merchant',
  name: 'getInvoices',
  summary: 'One invoice by id, or invoices by time range (last 90 days without one)',
  spec: '4.10',
  method: 'GET',
  path: '/merchant-api/v1/get-invoices',
  security: 'MERCHANT',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    invoice_id: p.string({ doc: 'only this invoice' }),
    start_time: p.long({ doc: 'range start, ms' }),
    end_time: p.long({ doc: 'range end, ms' }),
    limit: p.int({ min: 1, max: 1000, defaultValue: 500, doc: 'records, default 500, max 1000' }),
  },
  response: zInvoiceList,
  example: { params: { invoice_id: '1783304323757262592' }, response: { invoice: [sampleInvoice] } },
});

export const cancelInvoice = defineEndpoint({
  id: 'merchant.cancelInvoice',
  area: 'merchant',
  name: 'cancelInvoice',
  summary: 'Cancel a pending invoice',
  spec: '4.10',
  method: 'POST',
  path: '/merchant-api/v1/invoices-cancel',
  security: 'MERCHANT',
  weight: 1,
  envelope: 'bare',
  encoding: 'json',
  idempotent: false,
  params: { invoice_id: p.string({ doc: 'invoice to cancel' }).req() },
  response: zInvoiceOne,
  example: {
    params: { invoice_id: '1783304323757262592' },
    response: { invoice: { ...sampleInvoice, status: 'canceled', updated_at: '1690456641000', expires_in_seconds: '0' } },
  },
});

export const merchantEndpoints = { createInvoice, getInvoices, cancelInvoice } as const;
