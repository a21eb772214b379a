/**
 * Symbol filter shapes of spec 2.3, as strict zod schemas for the sandbox config. Decimal fields
 * are decimal strings (spec 1.4); counts (`maxNumOrders`, `avgPriceMins`) are integers. The
 * exchangeInfo body carries them exactly as configured (numbers as strings only under the
 * `numbersAsStrings` variant, protocol notes 5.2).
 */
import { z } from 'zod';
import { isDecimalText } from '../../core/money/decimal.ts';

/** A non-negative decimal string such as "0.01". Numbers are refused: floats have no place here. */
export const zDecimalText = z
  .string()
  .refine((s) => isDecimalText(s) && !s.trim().startsWith('-'), 'expected a non-negative decimal string such as "0.01"');

const d = zDecimalText;
const count = z.number().int().nonnegative();

export const filterSchema = z.discriminatedUnion('filterType', [
  z.strictObject({ filterType: z.literal('PRICE_FILTER'), minPrice: d, maxPrice: d, tickSize: d }),
  z.strictObject({ filterType: z.literal('PERCENT_PRICE'), multiplierUp: d, multiplierDown: d, avgPriceMins: count }),
  z.strictObject({ filterType: z.literal('PERCENT_PRICE_SA'), multiplierUp: d, multiplierDown: d, avgPriceMins: count }),
  z.strictObject({
    filterType: z.literal('PERCENT_PRICE_BY_SIDE'),
    bidMultiplierUp: d,
    bidMultiplierDown: d,
    askMultiplierUp: d,
    askMultiplierDown: d,
  }),
  z.strictObject({ filterType: z.literal('PERCENT_PRICE_INDEX'), multiplierUp: d, multiplierDown: d }),
  z.strictObject({ filterType: z.literal('PERCENT_PRICE_ORDER_SIZE'), multiplierUp: d, multiplierDown: d }),
  z.strictObject({ filterType: z.literal('STATIC_PRICE_RANGE'), priceUp: d, priceDown: d }),
  z.strictObject({ filterType: z.literal('LOT_SIZE'), minQty: d, maxQty: d, stepSize: d }),
  z.strictObject({ filterType: z.literal('NOTIONAL'), minNotional: d, maxNotional: d }),
  z.strictObject({ filterType: z.literal('MIN_NOTIONAL'), minNotional: d }),
  z.strictObject({ filterType: z.literal('MAX_NUM_ORDERS'), maxNumOrders: count }),
  z.strictObject({ filterType: z.literal('MAX_NUM_ALGO_ORDERS'), maxNumAlgoOrders: count }),
]);

export type SymbolFilterConfig = z.infer<typeof filterSchema>;

/** Filter fields that are counts, written as numbers (or strings under `numbersAsStrings`). */
export const COUNT_FIELDS: readonly string[] = ['avgPriceMins', 'maxNumOrders', 'maxNumAlgoOrders'];
