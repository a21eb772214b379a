/**
 * Fiat cash-out envelope failures (spec 7.6): HTTP 200 `{status, error, data: null, params: null}`.
 * Parameter-shaped problems (currency other than PHP, a duplicate or unknown internalOrderId, an
 * amount with more decimals than the channel's precision, or not positive) are -1025 naming the
 * parameter instead, as the params layer answers a malformed internalOrderId.
 */
import { EnvelopeFailure } from '../../http/venue-error.ts';

export const FIAT_STATUS = {
  serverError: 88010000,
  accountDisabled: 88010002,
  belowMinimum: 88010003,
  aboveMaximum: 88010004,
  dailyLimit: 88010005,
  monthlyLimit: 88010006,
  annualLimit: 88010007,
  methodUnavailable: 88010008,
  inProgress: 88010012,
  insufficient: 88010013,
} as const;

export const fiatFailures = {
  accountDisabled: () => new EnvelopeFailure(FIAT_STATUS.accountDisabled, 'The user account is disabled.'),
  belowMinimum: (min: string) => new EnvelopeFailure(FIAT_STATUS.belowMinimum, `The order amount is lower than the channel minimum of ${min} PHP.`),
  aboveMaximum: (max: string) => new EnvelopeFailure(FIAT_STATUS.aboveMaximum, `The order amount is greater than the channel maximum of ${max} PHP.`),
  dailyLimit: () => new EnvelopeFailure(FIAT_STATUS.dailyLimit, 'The daily cash-out limit is exceeded.'),
  monthlyLimit: () => new EnvelopeFailure(FIAT_STATUS.monthlyLimit, 'The monthly cash-out limit is exceeded.'),
  annualLimit: () => new EnvelopeFailure(FIAT_STATUS.annualLimit, 'The annual cash-out limit is exceeded.'),
  methodUnavailable: (what: string) => new EnvelopeFailure(FIAT_STATUS.methodUnavailable, `The cash-out method ${what} is unavailable, retry later.`),
  inProgress: () => new EnvelopeFailure(FIAT_STATUS.inProgress, 'A cash-out order is in progress; wait for it to complete before creating a new one.'),
  insufficient: () => new EnvelopeFailure(FIAT_STATUS.insufficient, 'Insufficient balance.'),
} as const;
