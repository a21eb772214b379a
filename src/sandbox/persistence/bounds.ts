/**
 * The bounds of what the sandbox stores, in one place for both sides (issue 24, defect 1): the
 * persistent parts' zod schemas (schema-kit.ts) refuse a file holding values outside them, and the
 * request checks (http/value-bounds.ts, admin balance routes) refuse a request carrying them, so
 * nothing a request may create can make the state file refuse to load.
 *
 * - Time: integer ms in [0, 9999-12-31T23:59:59.999Z]. ISO 8601 has four-digit years; every such
 *   time is a safe integer (zod's `int()` refuses unsafe ones: "Too big").
 * - Amounts: a request amount has at most REQUEST_AMOUNT_DIGITS integer digits and
 *   REQUEST_AMOUNT_DECIMALS decimals. A stored amount may be the product of two request amounts
 *   (price x quantity, a converted amount), so the stored bound is twice the digits. Stored
 *   decimals are not bounded: computed values (averages, converted amounts) carry what the
 *   arithmetic gives.
 */
import { D, isDecimalText, type Dec } from '../../core/money/decimal.ts';

/** 9999-12-31T23:59:59.999Z. */
export const MAX_TIME_MS = 253_402_300_799_999;
export const MIN_TIME_MS = 0;

export const REQUEST_AMOUNT_DIGITS = 20;
/** As many decimals as the smallest unit of an 18-decimal token (spec 2.10 coins). */
export const REQUEST_AMOUNT_DECIMALS = 18;
export const STORED_AMOUNT_DIGITS = 2 * REQUEST_AMOUNT_DIGITS;

const REQUEST_AMOUNT_LIMIT = new D(10).pow(REQUEST_AMOUNT_DIGITS);
const STORED_AMOUNT_LIMIT = new D(10).pow(STORED_AMOUNT_DIGITS);

/** Why `ms` cannot be stored as a time, or undefined when it can. */
export function timeProblem(ms: number): string | undefined {
  if (ms < MIN_TIME_MS) return 'must not be before 1970-01-01T00:00:00Z';
  if (!(ms <= MAX_TIME_MS)) return 'must not be after 9999-12-31T23:59:59.999Z';
  if (!Number.isInteger(ms)) return 'must be a whole number of milliseconds';
  return undefined;
}

function decimalOf(value: Dec | string): Dec | undefined {
  if (typeof value !== 'string') return value;
  return isDecimalText(value) ? new D(value.trim()) : undefined;
}

/** Why a stored amount (decimal text) is out of bounds, or undefined. */
export function storedAmountProblem(value: Dec | string): string | undefined {
  const d = decimalOf(value);
  if (d === undefined) return 'expected a decimal string such as "0.01"';
  if (!d.isFinite() || d.abs().gte(STORED_AMOUNT_LIMIT)) return `must be below 1e${STORED_AMOUNT_DIGITS} in magnitude`;
  return undefined;
}

/**
 * Why a request amount is out of bounds, or undefined: at most REQUEST_AMOUNT_DIGITS integer
 * digits and `maxDecimals` decimals (an endpoint may allow fewer).
 */
export function requestAmountProblem(value: Dec | string, maxDecimals = REQUEST_AMOUNT_DECIMALS): string | undefined {
  const d = decimalOf(value);
  if (d === undefined) return 'must be a decimal number';
  if (!d.isFinite() || d.abs().gte(REQUEST_AMOUNT_LIMIT)) return `must be below 1e${REQUEST_AMOUNT_DIGITS} (at most ${REQUEST_AMOUNT_DIGITS} digits before the point)`;
  if (d.decimalPlaces() > maxDecimals) return `at most ${maxDecimals} decimals`;
  return undefined;
}
