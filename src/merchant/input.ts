/**
 * Reading the merchant and payment-request commands' options (spec 2.13, 4.3, 4.10): each bad
 * value is a UsageError naming the option and the reason, before anything is sent. Amounts stay
 * decimal text (exact); ids stay text (they pass 2^53).
 */
import { D } from '../core/money/decimal.ts';
import { TIME_TEXT_PATTERN, TIME_TEXT_WORDS } from '../exchange/endpoints/areas/payment-request.ts';
import { UsageError } from '../cli/errors.ts';

/** Spec 2.13's payment collector codes. */
export const COLLECTORS = ['service_peso_wallet', 'CEBL', 'MLH', 'PLWN'] as const;
export const DEFAULT_COLLECTORS: readonly string[] = ['service_peso_wallet'];

const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

/** Whether text starting `YYYY-MM-DD` names a day of the calendar (Date.parse takes 2025-02-30 and rolls it over). */
function realDay(t: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(t);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(Date.UTC(y, mo - 1, d));
  return at.getUTCFullYear() === y && at.getUTCMonth() === mo - 1 && at.getUTCDate() === d;
}

function text(flag: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw new UsageError(`${flag} was given ${value.length} times: give it once`);
  return String(value);
}

/** A decimal amount above zero, as plain text (no sign, no exponent: what the venue reads). */
export function positiveAmount(flag: string, value: unknown): string {
  const t = text(flag, value)?.trim();
  if (t === undefined || t === '') throw new UsageError(`${flag} is required: the amount, a decimal number above 0 such as 100 or 12.50`);
  if (!PLAIN_DECIMAL.test(t)) throw new UsageError(`${flag}: '${t}' is not a plain decimal number above 0 (digits with an optional '.', no sign or exponent)`);
  if (new D(t).lte(0)) throw new UsageError(`${flag}: ${t} is not above 0; an amount must be positive`);
  return new D(t).toFixed();
}

/** An asset code such as PHP or BTC (upper-cased). */
export function currencyCode(flag: string, value: unknown): string {
  const t = text(flag, value)?.trim();
  if (t === undefined || t === '') throw new UsageError(`${flag} is required: a currency code such as PHP`);
  if (!/^[A-Za-z0-9]{2,15}$/.test(t)) throw new UsageError(`${flag}: '${t}' is not a currency code (2 to 15 letters or digits, such as PHP)`);
  return t.toUpperCase();
}

/** A comma list of spec 2.13 collector codes; the default when not given. */
export function collectors(flag: string, value: unknown, fallback: readonly string[] | undefined = DEFAULT_COLLECTORS): string[] | undefined {
  const t = text(flag, value);
  if (t === undefined) return fallback === undefined ? undefined : [...fallback];
  const codes = t.split(',').map((c) => c.trim());
  if (codes.some((c) => c === '')) throw new UsageError(`${flag}: '${t}' has an empty entry; give codes separated by commas (${COLLECTORS.join(', ')})`);
  for (const c of codes) {
    if (!(COLLECTORS as readonly string[]).includes(c)) throw new UsageError(`${flag}: '${c}' is not a payment collector code; spec 2.13 names ${COLLECTORS.join(', ')}`);
  }
  const dup = codes.find((c, i) => codes.indexOf(c) !== i);
  if (dup !== undefined) throw new UsageError(`${flag}: '${dup}' is listed twice`);
  return codes;
}

/** An expiry as the venue reads it: ISO 8601, or a delta (1w, 3d, 2h, 32m, 5s), never zero. */
export function expiry(flag: string, value: unknown): string | undefined {
  const t = text(flag, value)?.trim();
  if (t === undefined) return undefined;
  if (!TIME_TEXT_PATTERN.test(t)) throw new UsageError(`${flag}: '${t}' is not ${TIME_TEXT_WORDS}`);
  if (/^\d/.test(t) && !t.includes('-') && [...t.matchAll(/(\d+)[wdhms]/g)].every((m) => Number(m[1]) === 0)) throw new UsageError(`${flag}: '${t}' is no time at all; the invoice would expire at once`);
  if (t.includes('-') && (!realDay(t) || Number.isNaN(Date.parse(t)))) throw new UsageError(`${flag}: '${t}' is not a real date and time`);
  return t;
}

/** An invoice or payment request id: text without spaces (ids pass 2^53, so never a number). */
export function recordId(flag: string, value: unknown): string {
  const t = text(flag, value)?.trim();
  if (t === undefined || t === '') throw new UsageError(`${flag} is required: the id the venue gave (as printed by create or list)`);
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(t)) throw new UsageError(`${flag}: '${t}' is not an id (letters, digits, '-' or '_', at most 100)`);
  return t;
}

/** A free text the venue requires (message, payer): not empty. */
export function requiredText(flag: string, value: unknown, what: string): string {
  const t = text(flag, value);
  if (t === undefined || t.trim() === '') throw new UsageError(`${flag} is required: ${what}`);
  return t;
}

/** A time: ms since the epoch or an ISO 8601 date/time (UTC unless it says). */
export function timeOption(flag: string, value: unknown): number | undefined {
  const t = text(flag, value)?.trim();
  if (t === undefined) return undefined;
  if (/^\d{1,16}$/.test(t)) return Number(t);
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(t) ? Date.parse(`${t}T00:00:00Z`) : /^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(t) ? Date.parse(`${t}Z`) : Date.parse(t);
  if (!realDay(t) || Number.isNaN(ms)) throw new UsageError(`${flag}: '${t}' is not a time; give ms since the epoch or an ISO 8601 date/time such as 2025-01-15T12:00:00Z`);
  return ms;
}

/** A range of a list query: --from before --to. */
export function timeRange(from: number | undefined, to: number | undefined): void {
  if (from !== undefined && to !== undefined && from > to) throw new UsageError(`--from (${new Date(from).toISOString()}) is after --to (${new Date(to).toISOString()})`);
}

/** A list's --limit: 1..1000 (spec 4.3, 4.10). */
export function limitOption(flag: string, value: unknown): number | undefined {
  const t = text(flag, value)?.trim();
  if (t === undefined) return undefined;
  if (!/^\d+$/.test(t) || Number(t) < 1 || Number(t) > 1000) throw new UsageError(`${flag}: '${t}' is not a whole number from 1 to 1000 (the venue's maximum)`);
  return Number(t);
}
