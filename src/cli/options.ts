/**
 * Number options read from their text as typed (yargs' `type: 'number'` turns `abc` into NaN, so a
 * message could only say NaN): a plain decimal numeral within the option's range, else a usage
 * error naming the flag, what it takes and the text given. `numberFlag` declares such an option to
 * yargs so that `--help` still calls it a number.
 */
import { isPlainNumberText } from '../backtest/sources/cli-input.ts';
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

/**
 * The yargs declaration of an option read by numberOption / intOption: the parser hands over the
 * text as typed, and `--help` labels it [number], not [string]. yargs has no label of its own per
 * option: its help shows the last of its type lists holding the option (number after string),
 * while its parser never makes a number of a `string` option. So the option is in both lists; the
 * CLI tests hold both halves (src/cli/index.test.ts), should a yargs upgrade change either.
 */
export function numberFlag(describe: string): { string: true; number: true; describe: string } {
  return { string: true, number: true, describe };
}
