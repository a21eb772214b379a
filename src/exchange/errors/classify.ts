/**
 * The one classification table (spec 7, protocol notes 9, design rule 7).
 *
 * Maps what the venue answered (HTTP status, venue code, message, envelope status) to what the
 * caller may do next (`outcome`) and a finer `category`. Rows are data, checked in order, first
 * match wins: HTTP 429/418 and 5xx first (they say what happened to the request whatever the body
 * says), then envelopes, then message rules before code rules (notes 9: a message is more
 * specific than the codes -1010/-2010/-2011 it travels with), then the 403 and 4xx fallbacks.
 * The table is exported so the docs can print it.
 */
import type { ErrorCategory, ErrorOutcome } from './errors.ts';

export interface ClassifyInput {
  httpStatus: number;
  venueCode?: number | undefined;
  message?: string | undefined;
  envelopeStatus?: number | undefined;
  /** Safe to resend (reads). Decides between unknown-outcome and retryable for server faults. */
  idempotent?: boolean | undefined;
}

export interface Classification {
  outcome: ErrorOutcome;
  category: ErrorCategory;
}

export type RuleMatch =
  | { readonly kind: 'http'; readonly statuses: readonly number[] }
  | { readonly kind: 'http-range'; readonly from: number; readonly to: number }
  | { readonly kind: 'envelope'; readonly statuses?: readonly number[] }
  | { readonly kind: 'message'; readonly contains: string }
  | { readonly kind: 'code'; readonly codes: readonly number[] }
  | { readonly kind: 'any' };

/** A plain outcome, or one that depends on whether the request was idempotent. */
export type RuleOutcome = ErrorOutcome | { readonly write: ErrorOutcome; readonly read: ErrorOutcome };

export interface ClassificationRule {
  readonly match: RuleMatch;
  readonly outcome: RuleOutcome;
  readonly category: ErrorCategory;
  readonly why: string;
}

const SERVER_FAULT = { write: 'unknown-outcome', read: 'retryable' } as const;

export const CLASSIFICATION_TABLE: readonly ClassificationRule[] = [
  { match: { kind: 'http', statuses: [429] }, outcome: 'rate-limited', category: 'rate', why: 'request rate limit broken (spec 7.1)' },
  { match: { kind: 'http', statuses: [418] }, outcome: 'rate-limited', category: 'rate', why: 'IP auto-banned after 429s (spec 7.1)' },
  { match: { kind: 'http-range', from: 500, to: 599 }, outcome: SERVER_FAULT, category: 'server', why: '5xx: execution status unknown (spec 7.1)' },
  // 88010000 "server-side error" is the envelope's 5xx: the cash-out may have been created. Every
  // other status of spec 7.6 names a business reason (limits, balance, KYC, a quote expired,
  // liquidity unavailable): a definite refusal, nothing was created.
  { match: { kind: 'envelope', statuses: [88010000] }, outcome: SERVER_FAULT, category: 'envelope', why: 'fiat server-side error: fate unknown (spec 7.6)' },
  { match: { kind: 'envelope' }, outcome: 'rejected', category: 'envelope', why: 'envelope status != 0: business refusal (spec 7.6, notes 9)' },
  { match: { kind: 'message', contains: 'Unknown order sent' }, outcome: 'rejected', category: 'not-found', why: 'spec 7.4' },
  { match: { kind: 'message', contains: 'Duplicate order sent' }, outcome: 'rejected', category: 'duplicate', why: 'spec 7.4' },
  { match: { kind: 'message', contains: 'insufficient balance' }, outcome: 'rejected', category: 'funds', why: 'spec 7.4' },
  { match: { kind: 'message', contains: 'Order would immediately match and take' }, outcome: 'rejected', category: 'post-only', why: 'LIMIT_MAKER would take (spec 7.4)' },
  { match: { kind: 'message', contains: 'Filter failure' }, outcome: 'rejected', category: 'invalid-order', why: 'spec 7.5' },
  { match: { kind: 'code', codes: [-1002, -1022, -1023, -2015, -2017, -2018, -2019, -1150] }, outcome: 'fatal', category: 'auth', why: 'key, signature or IP whitelist (spec 7.3)' },
  { match: { kind: 'code', codes: [-1020, -1152] }, outcome: 'fatal', category: 'permission', why: 'key lacks the permission (notes 8)' },
  { match: { kind: 'code', codes: [-1021] }, outcome: 'retryable', category: 'clock', why: 'timestamp outside recvWindow: resync the clock (spec 5.3)' },
  { match: { kind: 'code', codes: [-1003, -1015] }, outcome: 'rate-limited', category: 'rate', why: 'too many requests / orders (spec 7.3)' },
  { match: { kind: 'code', codes: [-2013, -1125] }, outcome: 'rejected', category: 'not-found', why: 'no such order / listenKey (spec 7.3)' },
  { match: { kind: 'code', codes: [-1131] }, outcome: 'rejected', category: 'funds', why: 'spec 7.3' },
  { match: { kind: 'code', codes: [-1133] }, outcome: 'partial', category: 'invalid-order', why: 'cancel-replace partially failed: one leg took effect (spec 7.3, notes 6)' },
  { match: { kind: 'code', codes: [-2010, -2011, -1132] }, outcome: 'rejected', category: 'invalid-order', why: 'order or cancel rejected (spec 7.3)' },
  { match: { kind: 'code', codes: [-1000, -1001] }, outcome: SERVER_FAULT, category: 'server', why: 'unknown / internal error (spec 7.3)' },
  { match: { kind: 'http', statuses: [403] }, outcome: 'fatal', category: 'permission', why: 'web application firewall (spec 7.1)' },
  { match: { kind: 'any' }, outcome: 'rejected', category: 'bad-request', why: 'any other refusal: sender fault (spec 7.1)' },
];

function matches(m: RuleMatch, input: ClassifyInput, lowerMessage: string): boolean {
  switch (m.kind) {
    case 'http':
      return m.statuses.includes(input.httpStatus);
    case 'http-range':
      return input.httpStatus >= m.from && input.httpStatus <= m.to;
    case 'envelope':
      return (
        input.envelopeStatus !== undefined &&
        input.envelopeStatus !== 0 &&
        (m.statuses === undefined || m.statuses.includes(input.envelopeStatus))
      );
    case 'message':
      return lowerMessage.includes(m.contains.toLowerCase());
    case 'code':
      return input.venueCode !== undefined && m.codes.includes(input.venueCode);
    case 'any':
      return true;
  }
}

/** Finds the first matching row. Message rules compare case-insensitively. */
export function classify(input: ClassifyInput): Classification & { rule: ClassificationRule } {
  const lowerMessage = (input.message ?? '').toLowerCase();
  const rule = CLASSIFICATION_TABLE.find((r) => matches(r.match, input, lowerMessage)) as ClassificationRule;
  const outcome = typeof rule.outcome === 'string' ? rule.outcome : input.idempotent === true ? rule.outcome.read : rule.outcome.write;
  return { outcome, category: rule.category, rule };
}
