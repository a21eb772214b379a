/**
 * Legacy v4 validate-field (spec 4.11): an account number for a payout outlet (`account_type`),
 * or a mobile number of a region. The answer `{is_valid, field_type, message}` says why a value is
 * refused; only missing context (no field, unknown outlet) is a -1025 error.
 */
import { venueErrors } from '../../http/error-codes.ts';
import { findOutlet } from './outlets.ts';

const MOBILE: Readonly<Record<string, { prefix: string; digits: number }>> = {
  PH: { prefix: '+63', digits: 10 },
  TH: { prefix: '+66', digits: 9 },
};

export function validateField(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const text = (name: string) => (typeof params[name] === 'string' && params[name] !== '' ? (params[name] as string) : undefined);
  const fieldType = text('field_type') ?? (text('mobile_number') !== undefined ? 'mobile_number' : text('account_number') !== undefined ? 'account_number' : undefined);
  if (fieldType === 'account_number') {
    const number = text('account_number');
    if (number === undefined) throw venueErrors.missingParam('account_number');
    const outlet = findOutlet(text('account_type') ?? '');
    if (!outlet) throw venueErrors.invalidParam('account_type', 'no such payout outlet');
    const { min, max } = outlet.account_number_length;
    const ok = /^\d+$/.test(number) && number.length >= min && number.length <= max;
    return { is_valid: ok, field_type: fieldType, message: ok ? '' : `${outlet.name} account numbers have ${min === max ? min : `${min} to ${max}`} digits` };
  }
  if (fieldType === 'mobile_number') {
    const number = text('mobile_number');
    if (number === undefined) throw venueErrors.missingParam('mobile_number');
    const region = text('region') ?? 'PH';
    const rule = MOBILE[region];
    if (!rule) throw venueErrors.invalidParam('region', 'PH or TH');
    const ok = number.startsWith(rule.prefix) && number.length === rule.prefix.length + rule.digits;
    return { is_valid: ok, field_type: fieldType, message: ok ? '' : `${region} mobile numbers are ${rule.prefix} followed by ${rule.digits} digits` };
  }
  throw venueErrors.missingParam('field_type');
}
