/**
 * Wire shapes of spec 2.11: a channel row of support-channel and a fiat order of details/history.
 * Times of orders are ISO 8601 with a `+00:00` zone as in the spec's samples (spec 1.3).
 */
import { D, toWire } from '../../../core/money/decimal.ts';
import { CHANNELS, FIAT_CURRENCY, feeTier, type ChannelSubject } from './channels.ts';
import type { FiatOrderRecord, LimitUsage } from './fiat-desk.ts';

const ICONS = 'https://static.sandbox.halyard.local/fiat';

export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+00:00');
}

/** `remaining`: what the caller may still cash out per period (fiat-desk.ts remainingLimits). */
export function channelView(subject: ChannelSubject, amount: string, remaining: LimitUsage, maxWithdrawBalance: string): Record<string, unknown> {
  const terms = CHANNELS[subject.channel];
  const tier = feeTier(terms, new D(amount));
  return {
    id: subject.id,
    transactionChannel: subject.channel,
    transactionChannelName: terms.label,
    transactionSubject: subject.subject,
    transactionSubjectType: subject.type,
    transactionSubjectTypeLabel: subject.type === 'bank' ? 'Banks' : 'E-wallets',
    transactionSubjectName: subject.name,
    transactionType: -1,
    paymentMethod: 'BANK_TRANSFER',
    channelIcon: `${ICONS}/${terms.label}.png`,
    subjectIcon: `${ICONS}/${subject.subject}.png`,
    maximum: terms.maximum,
    minimum: terms.minimum,
    dailyLimit: terms.dailyLimit,
    monthlyLimit: terms.monthlyLimit,
    annualLimit: terms.annualLimit,
    remainingDailyLimit: toWire(remaining.day),
    remainingMonthlyLimit: toWire(remaining.month),
    remainingAnnualLimit: toWire(remaining.year),
    precision: String(terms.precision),
    fee: tier.fee,
    feeType: tier.feeType,
    status: '1',
    maxWithdrawBalance,
  };
}

export function orderView(o: FiatOrderRecord): Record<string, unknown> {
  const info = o.extendInfo;
  return {
    externalOrderId: o.externalOrderId,
    internalOrderId: o.internalOrderId,
    paymentOrderId: o.paymentOrderId,
    fiatCurrency: FIAT_CURRENCY,
    fiatAmount: o.amount,
    transactionType: -1,
    transactionChannel: o.channel,
    transactionSubject: o.subject.subject,
    transactionSubjectType: o.subject.type,
    transactionChannelName: CHANNELS[o.channel].label,
    transactionSubjectName: o.subject.name,
    feeCurrency: FIAT_CURRENCY,
    channelFee: '0',
    platformFee: o.fee,
    status: o.status,
    errorCode: o.errorCode,
    errorMessage: o.errorMessage,
    completedTime: o.completedAt === undefined ? null : isoTime(o.completedAt),
    source: 'open-api',
    createdAt: isoTime(o.createdAt),
    orderExtendedMap: {
      amount: o.amount,
      tfrName: typeof info['recipientName'] === 'string' ? info['recipientName'] : '',
      tfrAcctNo: typeof info['recipientAccountNumber'] === 'string' ? info['recipientAccountNumber'] : '',
      channelName: o.channel,
      currency: FIAT_CURRENCY,
      source: 'open-api',
      channelSubject: o.subject.subject,
      userId: o.accountId,
      channelReferenceNo: o.paymentOrderId,
    },
    // Open-API cash-outs cannot be canceled by the caller.
    dealCancel: false,
  };
}
