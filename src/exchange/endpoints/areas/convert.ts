/**
 * Spec 4.6 Convert: supported pairs, quote, accept quote, order history. Plus notes 6 `type=OTC`.
 *
 * Every answer is the `{status, error, data}` envelope (spec 1.10); failures are status 10000003
 * with a message (spec 7.6). The response codecs decode the whole envelope (codecs/convert.ts).
 */
import {
  CONVERT_ORDER_STATUSES,
  zAcceptQuoteBody,
  zConvertHistoryBody,
  zQuoteBody,
  zSupportedPairsBody,
} from '../../codecs/convert.ts';
import { p } from '../../params/dsl.ts';
import { defineEndpoint } from '../types.ts';

export const getSupportedTradingPairs = defineEndpoint({
  id: 'convert.getSupportedTradingPairs',
  area: 'convert',
  name: 'getSupportedTradingPairs',
  summary: 'Convertible pairs with their source-amount ranges',
  spec: '4.6',
  method: 'POST',
  path: '/openapi/convert/v1/get-supported-trading-pairs',
  security: 'TRADE',
  weight: 1,
  envelope: 'status',
  encoding: 'form',
  // A read, although sent as POST.
  idempotent: true,
  params: {},
  response: zSupportedPairsBody,
  example: {
    params: {},
    response: {
      status: 0,
      error: 'OK',
      data: [
        { sourceCurrency: 'PHP', targetCurrency: 'BTC', minSourceAmount: '1000', maxSourceAmount: '15000', precision: '2' },
        { sourceCurrency: 'BTC', targetCurrency: 'PHP', minSourceAmount: '0.0001', maxSourceAmount: '0.1', precision: '8' },
      ],
    },
  },
});

export const getQuote = defineEndpoint({
  id: 'convert.getQuote',
  area: 'convert',
  name: 'getQuote',
  summary: 'Quote for converting one currency into another (refresh at most every 1000 ms, notes 6)',
  spec: '4.6',
  method: 'POST',
  path: '/openapi/convert/v1/get-quote',
  security: 'TRADE',
  weight: 1,
  envelope: 'status',
  encoding: 'form',
  // A quote is only an offer until accepted: asking again is harmless.
  idempotent: true,
  params: {
    sourceCurrency: p.string({ doc: 'the currency held' }).req(),
    targetCurrency: p.string({ doc: 'the currency wanted' }).req(),
    sourceAmount: p.decimal({ doc: 'amount of sourceCurrency (or targetAmount, not both)' }),
    targetAmount: p.decimal({ doc: 'amount of targetCurrency (or sourceAmount, not both)' }),
    type: p.enum(['OTC'], { doc: 'OTC quote for whitelisted business accounts (notes 6)' }),
  },
  rules: [{ kind: 'exactlyOne', params: ['sourceAmount', 'targetAmount'] }],
  response: zQuoteBody,
  example: {
    params: { sourceCurrency: 'BTC', targetCurrency: 'PHP', sourceAmount: '0.1' },
    response: {
      status: 0,
      error: 'OK',
      data: {
        quoteId: '2182b4fc18ff4556a18332245dba75ea',
        sourceCurrency: 'BTC',
        targetCurrency: 'PHP',
        sourceAmount: '0.1',
        price: '59999',
        targetAmount: '5999',
        expiry: '10',
      },
    },
  },
});

export const acceptQuote = defineEndpoint({
  id: 'convert.acceptQuote',
  area: 'convert',
  name: 'acceptQuote',
  summary: 'Accept a quote, creating a convert order (Quote expired after `expiry` seconds)',
  spec: '4.6',
  method: 'POST',
  path: '/openapi/convert/v1/accept-quote',
  security: 'TRADE',
  weight: 1,
  envelope: 'status',
  encoding: 'form',
  idempotent: false,
  params: { quoteId: p.string({ doc: 'id from get-quote' }).req() },
  response: zAcceptQuoteBody,
  example: {
    params: { quoteId: '2182b4fc18ff4556a18332245dba75ea' },
    response: { status: 0, data: { orderId: '49d10b74c60a475298c6bbed08dd58fa', status: 'SUCCESS' }, error: 'ok' },
  },
});

export const queryOrderHistory = defineEndpoint({
  id: 'convert.queryOrderHistory',
  area: 'convert',
  name: 'queryOrderHistory',
  summary: 'Convert orders, optionally within a period (whole history without one)',
  spec: '4.6',
  method: 'POST',
  path: '/openapi/convert/v1/query-order-history',
  security: 'USER_DATA',
  weight: 1,
  envelope: 'status',
  encoding: 'form',
  idempotent: true,
  params: {
    // Spec type STRING "numeric strings of ms": a LONG serialises to the same text.
    startTime: p.long({ doc: 'period start, ms' }),
    endTime: p.long({ doc: 'period end, ms' }),
    status: p.enum(CONVERT_ORDER_STATUSES, { doc: 'delivery status; only together with startTime' }),
    page: p.int({ min: 1, doc: 'page number' }),
    size: p.int({ min: 1, doc: 'page size' }),
  },
  rules: [{ kind: 'requires', param: 'status', requires: 'startTime' }],
  response: zConvertHistoryBody,
  example: {
    params: { startTime: 1671753600000, endTime: 1671840000000, status: 'SUCCESS', page: 1, size: 20 },
    response: {
      status: 0,
      error: 'OK',
      data: [
        {
          id: '',
          orderId: '25a9b92bcd4d4b2598c8be97bc65b466',
          quoteId: '1ecce9a7265a4a329cce80de46e2c583',
          userId: '',
          sourceCurrency: 'BTC',
          sourceCurrencyIcon: '',
          targetCurrency: 'PHP',
          targetCurrencyIcon: '',
          sourceAmount: '0.11',
          targetAmount: '4466.89275956',
          price: '40608.115996',
          status: 'SUCCESS',
          createdAt: '1671797993000',
          errorCode: '',
          errorMessage: '',
          inversePrice: '0.00002462',
        },
      ],
      total: 1,
    },
  },
});

export const convertEndpoints = { getSupportedTradingPairs, getQuote, acceptQuote, queryOrderHistory } as const;
