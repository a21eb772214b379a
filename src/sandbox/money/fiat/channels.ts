/**
 * The sandbox's cash-out channels (spec 2.11, 4.8): two first-level channels, INSTAPAY (near
 * real-time, small amounts) and SWIFTPAY_PESONET (batch, larger amounts, T+1 when large), each
 * with a few subjects (banks and e-wallets). Limits count per account per channel over the UTC
 * calendar day, month and year. Fees depend on the amount (the reason support-channel takes one):
 * INSTAPAY is FIXED 10 PHP; PESONET is FIXED 20 PHP below 10,000 and 0.2 % (PERCENTAGE; `fee`
 * is a percent figure) from 10,000. Settlement delays are sandbox time.
 */
import { D, type Dec } from '../../../core/money/decimal.ts';

export const FIAT_CURRENCY = 'PHP';

export type ChannelName = 'INSTAPAY' | 'SWIFTPAY_PESONET';
export type FeeType = 'FIXED' | 'PERCENTAGE';

export interface ChannelTerms {
  name: ChannelName;
  label: string;
  minimum: string;
  maximum: string;
  dailyLimit: string;
  monthlyLimit: string;
  annualLimit: string;
  precision: number;
  /** Fee tiers by amount, lowest `from` first. */
  fees: readonly { from: string; fee: string; feeType: FeeType }[];
  /** Sandbox ms from creation to SUCCEEDED, by amount. */
  settleMs(amount: Dec): number;
}

export interface ChannelSubject {
  id: number;
  channel: ChannelName;
  subject: string;
  type: 'bank' | 'e-wallet';
  name: string;
}

const HOUR = 3_600_000;

export const CHANNELS: Readonly<Record<ChannelName, ChannelTerms>> = {
  INSTAPAY: {
    name: 'INSTAPAY',
    label: 'instapay',
    minimum: '50',
    maximum: '50000',
    dailyLimit: '100000',
    monthlyLimit: '500000',
    annualLimit: '2000000',
    precision: 2,
    fees: [{ from: '0', fee: '10', feeType: 'FIXED' }],
    settleMs: () => 60_000,
  },
  SWIFTPAY_PESONET: {
    name: 'SWIFTPAY_PESONET',
    label: 'swiftpay_pesonet',
    minimum: '50',
    maximum: '500000',
    dailyLimit: '1000000',
    monthlyLimit: '5000000',
    annualLimit: '20000000',
    precision: 2,
    fees: [
      { from: '0', fee: '20', feeType: 'FIXED' },
      { from: '10000', fee: '0.2', feeType: 'PERCENTAGE' },
    ],
    // Spec 4.8: T+1 for large amounts.
    settleMs: (amount) => (amount.gte(50_000) ? 24 * HOUR : 2 * HOUR),
  },
};

export const SUBJECTS: readonly ChannelSubject[] = [
  { id: 601, channel: 'INSTAPAY', subject: 'gcash', type: 'e-wallet', name: 'GCash' },
  { id: 602, channel: 'INSTAPAY', subject: 'paymaya', type: 'e-wallet', name: 'Maya' },
  { id: 603, channel: 'INSTAPAY', subject: 'bpi', type: 'bank', name: 'Bank of the Philippine Islands' },
  { id: 604, channel: 'INSTAPAY', subject: 'bdo', type: 'bank', name: 'BDO Unibank, Inc.' },
  { id: 605, channel: 'INSTAPAY', subject: 'unionbank', type: 'bank', name: 'Union Bank of the Philippines' },
  { id: 622, channel: 'INSTAPAY', subject: 'allbank', type: 'bank', name: 'AllBank (A Thrift Bank), Inc.' },
  { id: 701, channel: 'SWIFTPAY_PESONET', subject: 'gcash', type: 'e-wallet', name: 'GCash' },
  { id: 702, channel: 'SWIFTPAY_PESONET', subject: 'bpi', type: 'bank', name: 'Bank of the Philippine Islands' },
  { id: 703, channel: 'SWIFTPAY_PESONET', subject: 'bdo', type: 'bank', name: 'BDO Unibank, Inc.' },
  { id: 704, channel: 'SWIFTPAY_PESONET', subject: 'metrobank', type: 'bank', name: 'Metropolitan Bank and Trust Company' },
  { id: 705, channel: 'SWIFTPAY_PESONET', subject: 'aub', type: 'bank', name: 'Asia United Bank' },
  { id: 706, channel: 'SWIFTPAY_PESONET', subject: 'citi', type: 'bank', name: 'Citibank, N.A.' },
];

export function findSubject(channel: string, subject: string): ChannelSubject | undefined {
  const s = subject.toLowerCase();
  return SUBJECTS.find((x) => x.channel === channel && x.subject === s);
}

/** The fee tier for `amount`. */
export function feeTier(terms: ChannelTerms, amount: Dec): ChannelTerms['fees'][number] {
  let tier = terms.fees[0]!;
  for (const t of terms.fees) if (amount.gte(t.from)) tier = t;
  return tier;
}

/** The platform fee in PHP for `amount`, rounded up to the channel's precision. */
export function feeFor(terms: ChannelTerms, amount: Dec): Dec {
  const tier = feeTier(terms, amount);
  const fee = tier.feeType === 'FIXED' ? new D(tier.fee) : amount.times(tier.fee).div(100);
  return fee.toDecimalPlaces(terms.precision, D.ROUND_UP);
}
