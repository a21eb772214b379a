/**
 * Spec 4.8 Fiat: cash-out channels, cash-out, order detail and history (v1 deprecated, v2).
 *
 * JSON bodies signed as notes 2.2 (raw query + raw JSON; key and signature in headers). Every
 * answer is the `{status, error, data}` envelope; cash-out failures are 88010000..88010018 (spec 7.6).
 * The spec writes the paths without a leading slash; the table keeps one, like every other path.
 */
import {
  FIAT_ORDER_STATUSES,
  zCashOutBody,
  zFiatDetailsBody,
  zFiatHistoryBody,
  zSupportChannelBody,
} from '../../codecs/fiat.ts';
import { p } from '../../params/dsl.ts';
import { defineEndpoint } from '../types.ts';
import { TIME_TEXT_PATTERN, TIME_TEXT_WORDS } from './payment-request.ts';

/** First-level channels (spec 4.8). */
export const FIAT_CHANNELS = ['INSTAPAY', 'SWIFTPAY_PESONET'] as const;

/** Digits only, not starting with 0, 10 to 20 long (spec 4.8, 8.13). */
export const INTERNAL_ORDER_ID_PATTERN = /^[1-9]\d{9,19}$/;

/** The channel-dependent recipient details of a cash-out. */
export interface CashOutExtendInfo {
  recipientName?: string;
  recipientAccountNumber?: string;
  /** Optional for SWIFTPAY_PESONET. */
  recipientAddress?: string;
  /** Optional for SWIFTPAY_PESONET. */
  remarks?: string;
}

const pageText = (defaultValue: string, doc: string) =>
  // Spec type STRING, sent as a JSON string.
  p.string({ pattern: /^[1-9]\d*$/, patternText: 'a positive integer', defaultValue, doc });

const timeText = (doc: string) => p.string({ pattern: TIME_TEXT_PATTERN, patternText: TIME_TEXT_WORDS, doc });

/** History parameters shared by v1 and v2, all optional. */
const historyParams = {
  pageNum: pageText('1', 'page number, default 1'),
  pageSize: pageText('10', 'page size, default 10'),
  internalOrderId: p.string({ doc: 'one order' }),
  transactionType: p.enum(['1', '-1'], { doc: '1 cash-in, -1 cash-out' }),
  transactionChannel: p.enum(FIAT_CHANNELS, { doc: 'first-level channel' }),
  transactionSubject: p.string({ doc: 'channel code, e.g. gcash' }),
  status: p.enum(FIAT_ORDER_STATUSES, { doc: 'order status' }),
  fiatCurrency: p.string({ doc: 'fiat currency (PHP)' }),
  startDate: timeText('creation time from: ISO 8601 UTC or delta (1w 3d 2h 32m 5s)'),
  endDate: timeText('creation time to: ISO 8601 UTC or delta'),
  // Used only when startDate and endDate are both empty (server zone UTC+0): precedence, not a conflict.
  startTime: p.long({ doc: 'creation time from, ms; only when startDate/endDate are empty' }),
  endTime: p.long({ doc: 'creation time to, ms; only when startDate/endDate are empty' }),
} as const;

const sampleHistoryOrders = [
  {
    externalOrderId: '1476829580936625682',
    internalOrderId: '1476829580936625681',
    paymentOrderId: '000008',
    fiatCurrency: 'PHP',
    fiatAmount: '11111',
    transactionType: 1,
    transactionChannel: 'INSTAPAY',
    transactionSubject: 'allbank',
    transactionChannelName: 'instapay',
    transactionSubjectName: 'AllBank (A Thrift Bank), Inc.',
    transactionSubjectType: 'bank',
    feeCurrency: 'PHP',
    channelFee: '0',
    platformFee: '0',
    status: 'SUCCEEDED',
    errorCode: 'SUCCEEDED',
    errorMessage: '',
    completedTime: '2023-07-31T07:16:47.000+00:00',
    source: 'WEBHOOK',
    createdAt: '2023-07-31T07:16:46.000+00:00',
    orderExtendedMap: { channelReferenceNo: '000008', senderAccountNumber: '8613989193526' },
    dealCancel: false,
  },
  {
    externalOrderId: '1476829580936625686',
    internalOrderId: '1474038775754799133',
    paymentOrderId: '2023072799',
    fiatCurrency: 'PHP',
    fiatAmount: '100',
    transactionType: -1,
    transactionChannel: 'SWIFTPAY_PESONET',
    transactionSubject: 'aub',
    transactionChannelName: 'swiftpay_pesonet',
    transactionSubjectName: 'Asia United Bank',
    transactionSubjectType: 'bank',
    feeCurrency: 'PHP',
    channelFee: '0',
    platformFee: '10',
    status: 'PENDING',
    errorCode: '',
    errorMessage: '',
    completedTime: null,
    source: 'open-api',
    createdAt: '2023-07-27T10:52:40.000+00:00',
    orderExtendedMap: {},
    dealCancel: false,
  },
];

export const supportChannel = defineEndpoint({
  id: 'fiat.supportChannel',
  area: 'fiat',
  name: 'supportChannel',
  summary: 'Cash-out channels with their limits and fees',
  spec: '4.8',
  method: 'POST',
  path: '/openapi/fiat/v1/support-channel',
  security: 'TRADE',
  weight: 1,
  envelope: 'status',
  encoding: 'json',
  // A read, although sent as POST.
  idempotent: true,
  params: {
    transactionType: p.enum(['-1'], { doc: '-1 cash-out (the only one supported)' }).req(),
    currency: p.string({ doc: 'PHP only' }).req(),
    transactionChannel: p.enum(FIAT_CHANNELS, { doc: 'first-level channel filter' }),
    transactionSubject: p.string({ doc: 'channel code filter, e.g. gcash' }),
    amount: p.decimal({ defaultValue: '0', doc: 'amount used to match an amount-ranged fee rate; default 0' }),
  },
  response: zSupportChannelBody,
  example: {
    params: { transactionType: '-1', currency: 'PHP', transactionChannel: 'INSTAPAY' },
    response: {
      status: 0,
      error: 'OK',
      data: [
        {
          id: 622,
          transactionChannel: 'INSTAPAY',
          transactionChannelName: 'instapay',
          transactionSubject: 'allbank',
          transactionSubjectType: 'bank',
          transactionSubjectTypeLabel: 'Banks',
          transactionSubjectName: 'AllBank (A Thrift Bank), Inc.',
          transactionType: -1,
          paymentMethod: 'BANK_TRANSFER',
          channelIcon: 'https://static.example.com/fiat/instapay.png',
          subjectIcon: 'https://static.example.com/fiat/allbank.png',
          maximum: '50000',
          minimum: '50',
          dailyLimit: '100000',
          monthlyLimit: '100000',
          annualLimit: '1000000',
          remainingDailyLimit: '100000',
          remainingMonthlyLimit: '100000',
          remainingAnnualLimit: '999656',
          precision: '2',
          fee: '10',
          feeType: 'fixed',
          status: '1',
          maxWithdrawBalance: '37084.37',
        },
      ],
    },
  },
});

export const cashOut = defineEndpoint({
  id: 'fiat.cashOut',
  area: 'fiat',
  name: 'cashOut',
  summary: 'Withdraw fiat through a channel (INSTAPAY near real-time; SWIFTPAY_PESONET T+1 for large amounts)',
  spec: '4.8',
  method: 'POST',
  path: '/openapi/fiat/v1/cash-out',
  security: 'TRADE',
  weight: 1,
  envelope: 'status',
  encoding: 'json',
  idempotent: false,
  params: {
    internalOrderId: p
      .string({
        pattern: INTERNAL_ORDER_ID_PATTERN,
        patternText: 'digits only, not starting with 0, 10 to 20 long',
        minLength: 10,
        maxLength: 20,
        doc: 'client order id: 10-20 digits, no leading 0',
      })
      .req(),
    currency: p.string({ doc: 'PHP only' }).req(),
    amount: p.decimal({ doc: 'amount to withdraw' }).req(),
    channelName: p.enum(FIAT_CHANNELS, { doc: 'first-level channel' }).req(),
    channelSubject: p.string({ doc: 'channel code (transactionSubject of support-channel)' }).req(),
    extendInfo: p.json<CashOutExtendInfo>({
      doc: 'recipientName, recipientAccountNumber, recipientAddress, remarks (varies by channel)',
    }),
  },
  response: zCashOutBody,
  example: {
    // The body of the protocol notes 3 fiat test vector.
    params: {
      internalOrderId: '1212323211',
      currency: 'PHP',
      amount: '50',
      channelName: 'SWIFTPAY_PESONET',
      channelSubject: 'gcash',
      extendInfo: { recipientName: 'sandy openapitest', recipientAccountNumber: '123456789' },
    },
    response: {
      status: 0,
      error: 'OK',
      data: { externalOrderId: '1380692028693995623', internalOrderId: '1212323211' },
      params: null,
    },
  },
});

export const details = defineEndpoint({
  id: 'fiat.details',
  area: 'fiat',
  name: 'details',
  summary: 'One fiat order by internalOrderId',
  spec: '4.8',
  method: 'GET',
  path: '/openapi/fiat/v1/details',
  security: 'USER_DATA',
  weight: 1,
  envelope: 'status',
  encoding: 'query',
  idempotent: true,
  params: { internalOrderId: p.string({ doc: 'the order to read' }).req() },
  response: zFiatDetailsBody,
  example: {
    params: { internalOrderId: '1388420429697583896' },
    response: {
      status: 0,
      error: 'OK',
      data: {
        externalOrderId: '1380692028693995623',
        internalOrderId: '1388420429697583896',
        paymentOrderId: '455628',
        fiatCurrency: 'PHP',
        fiatAmount: '60',
        transactionType: -1,
        transactionChannel: 'INSTAPAY',
        transactionSubject: 'gcash',
        transactionSubjectType: 'e-wallet',
        transactionChannelName: 'instapay',
        transactionSubjectName: 'GCash',
        feeCurrency: 'PHP',
        channelFee: '0',
        platformFee: '10',
        status: 'SUCCEEDED',
        errorCode: '',
        errorMessage: '',
        completedTime: '2023-03-31T07:44:42.000+00:00',
        source: 'open-api',
        createdAt: '2023-03-31T07:43:37.000+00:00',
        orderExtendedMap: {
          amount: '50',
          tfrName: 'Li Mei Ling',
          tfrAcctNo: '095656x4060',
          channelName: 'INSTAPAY',
          currency: 'PHP',
          source: 'open-api',
          channelSubject: 'gcash',
          userId: '1326887193348759809',
          orgId: 9001,
        },
        dealCancel: false,
      },
    },
  },
});

export const historyV1 = defineEndpoint({
  id: 'fiat.historyV1',
  area: 'fiat',
  name: 'historyV1',
  summary: 'Fiat order history (deprecated: use historyV2)',
  spec: '4.8',
  method: 'POST',
  path: '/openapi/fiat/v1/history',
  security: 'USER_DATA',
  weight: 1,
  envelope: 'status',
  encoding: 'json',
  idempotent: true,
  params: historyParams,
  response: zFiatHistoryBody,
  example: {
    params: { pageNum: '1', pageSize: '10', startDate: '1w' },
    response: { status: 0, error: 'OK', data: sampleHistoryOrders, total: 2 },
  },
});

export const historyV2 = defineEndpoint({
  id: 'fiat.historyV2',
  area: 'fiat',
  name: 'historyV2',
  summary: 'Fiat order history, filterable by externalOrderId too',
  spec: '4.8',
  method: 'POST',
  path: '/openapi/fiat/v2/history',
  security: 'USER_DATA',
  weight: 1,
  envelope: 'status',
  encoding: 'json',
  idempotent: true,
  params: { ...historyParams, externalOrderId: p.string({ doc: "the venue's internal id" }) },
  response: zFiatHistoryBody,
  example: {
    params: { pageNum: '1', pageSize: '10', startTime: 1690243200000, endTime: 1690848000000 },
    response: { status: 0, error: 'OK', data: sampleHistoryOrders, total: 2 },
  },
});

export const fiatEndpoints = { supportChannel, cashOut, details, historyV1, historyV2 } as const;
