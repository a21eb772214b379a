/**
 * Convert response codecs (spec 2.10) and the `{status, error, data, total?}` envelope (spec 1.10).
 *
 * Convert and fiat codecs decode the WHOLE envelope, not only `data`: list answers carry `total`
 * beside `data`, and cash-out carries `params`. The client checks `status != 0` (an error whatever
 * the HTTP status, notes 9) before it decodes, so a decoded envelope always holds a success.
 */
import { z } from 'zod';
import { zDec, zIdText, zNum, obj } from './common.ts';

/** The status envelope around `data`. `error` is "OK" (or "ok") on success. */
export const statusEnvelope = <T extends z.ZodType>(data: T) =>
  obj({
    status: zNum,
    error: z.string().nullish(),
    data,
  });

/** The list variant: `total` counts all matching records, not only this page. */
export const statusEnvelopeWithTotal = <T extends z.ZodType>(data: T) =>
  obj({
    status: zNum,
    error: z.string().nullish(),
    data,
    total: zNum,
  });

export const zConvertPair = obj({
  sourceCurrency: z.string(),
  targetCurrency: z.string(),
  minSourceAmount: zDec,
  maxSourceAmount: zDec,
  /** Decimal places, sent as a string. */
  precision: zNum,
});
export type ConvertPair = z.infer<typeof zConvertPair>;

export const zConvertQuote = obj({
  quoteId: z.string(),
  sourceCurrency: z.string(),
  targetCurrency: z.string(),
  sourceAmount: zDec,
  price: zDec,
  targetAmount: zDec,
  /** Seconds until the quote expires (a string on the wire). */
  expiry: zNum,
});
export type ConvertQuote = z.infer<typeof zConvertQuote>;

export const ACCEPT_QUOTE_STATUSES = ['SUCCESS', 'PROCESSING'] as const;
export const zAcceptQuoteResult = obj({ orderId: z.string(), status: z.enum(ACCEPT_QUOTE_STATUSES) });

export const CONVERT_ORDER_STATUSES = ['TODO', 'SUCCESS', 'FAILED', 'PROCESSING'] as const;

export const zConvertOrder = obj({
  // The documented sample sends `id` and `userId` as empty strings: opaque text.
  id: zIdText,
  orderId: z.string(),
  quoteId: z.string(),
  userId: zIdText,
  sourceCurrency: z.string(),
  sourceCurrencyIcon: z.string().nullish(),
  targetCurrency: z.string(),
  targetCurrencyIcon: z.string().nullish(),
  sourceAmount: zDec,
  targetAmount: zDec,
  price: zDec,
  status: z.enum(CONVERT_ORDER_STATUSES),
  /** ms, a string on the wire. */
  createdAt: zNum,
  errorCode: zIdText.nullish(),
  errorMessage: z.string().nullish(),
  /** Added 2024-04-29; older records may lack it. */
  inversePrice: zDec.optional(),
});
export type ConvertOrder = z.infer<typeof zConvertOrder>;

export const zSupportedPairsBody = statusEnvelope(z.array(zConvertPair));
export const zQuoteBody = statusEnvelope(zConvertQuote);
export const zAcceptQuoteBody = statusEnvelope(zAcceptQuoteResult);
export const zConvertHistoryBody = statusEnvelopeWithTotal(z.array(zConvertOrder));
