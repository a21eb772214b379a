/**
 * Money columns hold decimal text (issue "journal": money as TEXT, never REAL), and their CHECK
 * rules accept digits and one dot. A JS number a caller passes without types (a plain JavaScript
 * plugin, a JSON value) slips through them: SQLite stores its text, so 0.1 + 0.2 lands as
 * '0.30000000000000004', a float's digits kept as if exact. The stores refuse anything but a
 * string in a money field before writing, naming the field.
 */
import { JournalError } from './errors.ts';

/** The first money field of `record` that is set but not a string; undefined when there is none. */
export function nonTextMoneyField(record: object, fields: readonly string[]): string | undefined {
  for (const field of fields) {
    const v = (record as Record<string, unknown>)[field];
    if (v !== undefined && v !== null && typeof v !== 'string') return field;
  }
  return undefined;
}

/** INVALID_RECORD for money field `field` of the record `what` names, which holds `value` (not a string). */
export function moneyTextError(file: string, what: string, field: string, value: unknown): JournalError {
  const shown = typeof value === 'number' ? `the number ${String(value)}` : `a ${typeof value}`;
  return new JournalError('INVALID_RECORD', file, `${what}: ${field} must be decimal text (a string), got ${shown}: money is never stored from a float`);
}

/** Throws INVALID_RECORD naming `what` and the first money field of `record` that is set but not a string. */
export function requireMoneyText(file: string, what: () => string, record: object, fields: readonly string[]): void {
  const field = nonTextMoneyField(record, fields);
  if (field !== undefined) throw moneyTextError(file, what(), field, (record as Record<string, unknown>)[field]);
}
