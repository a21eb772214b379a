/**
 * Number options read from their text as typed (yargs' `type: 'number'` turns `abc` into NaN, so a
 * message could only say NaN): a plain decimal numeral within the option's range, else a usage
 * error naming the flag, what it takes and the text given.
 */
import { isPlainNumberText } from '../backtest/cli-input.ts';
import { UsageError } from './errors.ts';

/** The option's number, undefined when it was not given; `ok` says whether a number is in range. */
export function numberOption(flag: string, text: string | number | undefined, expected: string, ok: (n: number) => boolean): number | undefined {
  if (text === undefined) return undefined;
  const typed = String(text);
  const n = isPlainNumberText(typed.trim()) ? Number(typed.trim()) : Number.NaN;
  if (Number.isNaN(n) || !ok(n)) throw new UsageError(`${flag}: expected ${expected}, got '${typed}'`);
  return n;
}

/** A whole number >= min. */
export function intOption(flag: string, text: string | number | undefined, min: number, expected = `a whole number >= ${min}`): number | undefined {
  return numberOption(flag, text, expected, (n) => Number.isInteger(n) && n >= min);
}
