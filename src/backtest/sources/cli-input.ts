/**
 * Backtest inputs as typed on a command line, turned into values with messages a person can act
 * on: `--param fast=10` (typed by the strategy's own params schema: numbers for number fields,
 * written as plain decimals, true / false for booleans, text otherwise, so decimals stay exact),
 * `--balance PHP=10000`. A name or an asset given twice is refused (which one would win is a
 * guess). Every problem is thrown as a RangeError naming the input; the CLI turns it into a usage error.
 */
import { D } from '../../core/money/decimal.ts';
import { AMOUNT_SCALE } from '../../core/portfolio/amount.ts';
import { fieldTypeOf } from '../../strategy/params.ts';
import type { ParamsSchema } from '../../strategy/params.ts';
import type { z } from 'zod';

/** The params schema's field names (empty when it has no plain shape). */
export function paramNames(schema: ParamsSchema): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

/** A plain decimal numeral: optional sign, digits, optional fraction (`10`, `-2.5`, `0.25`); not `0x10`, `1e1` or `Infinity`. */
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d+)?|\.\d+)$/;

export function isPlainNumberText(text: string): boolean {
  return PLAIN_NUMBER.test(text);
}

/**
 * A number field's text as its number: a plain decimal numeral is read; text that Number() would
 * also read some other way (`0x10`, `0b11`, `1e1`) is refused; anything else stays text, for the
 * schema to say what it expected.
 */
export function numberFromText(name: string, text: string): number | string {
  if (isPlainNumberText(text)) return Number(text);
  if (text !== '' && Number.isFinite(Number(text))) throw new RangeError(`--param ${name}: '${text}' is not a plain decimal number (write it with digits, an optional sign and fraction, e.g. 10 or 0.5)`);
  return text;
}

/** `k=v` pairs -> raw params, each value typed by its schema field (unknown keys stay text: the schema reports them). */
export function parseParamArgs(pairs: readonly string[], schema: ParamsSchema): Record<string, unknown> {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const out: Record<string, unknown> = {};
  const given = new Map<string, string>();
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new RangeError(`--param ${JSON.stringify(pair)}: write it as name=value, e.g. --param fast=10`);
    const key = pair.slice(0, eq).trim();
    const text = pair.slice(eq + 1).trim();
    const before = given.get(key);
    if (before !== undefined) throw new RangeError(`--param ${key} was given twice (${key}=${before}, ${key}=${text}): give it once`);
    given.set(key, text);
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
    const type = field === undefined ? undefined : fieldTypeOf(field);
    if (type === 'number' || type === 'int') out[key] = numberFromText(key, text);
    else if (type === 'boolean') out[key] = text === 'true' ? true : text === 'false' ? false : text;
    else if (type === 'array') out[key] = text === '' ? [] : text.split(',').map((x) => x.trim());
    else out[key] = text;
  }
  return out;
}

/** `ASSET=AMOUNT` pairs -> balances (assets upper-cased; amounts within what a balance holds). */
export function parseBalanceArgs(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const given = new Map<string, string>();
  for (const pair of pairs) {
    const m = /^([A-Za-z0-9]{1,20})=(.+)$/.exec(pair.trim());
    if (!m) throw new RangeError(`--balance ${JSON.stringify(pair)}: write it as ASSET=AMOUNT, e.g. --balance PHP=10000`);
    const [, asset, typed] = m as unknown as [string, string, string];
    const amount = typed.trim();
    const key = asset.toUpperCase();
    const before = given.get(key);
    if (before !== undefined) throw new RangeError(`--balance ${key} was given twice (${before}, ${pair.trim()}): give it once`);
    given.set(key, pair.trim());
    // Plain digits, as every other number on the command line: 1e3 is not how an amount is written.
    if (!isPlainNumberText(amount) || /^[+-]/.test(amount)) throw new RangeError(`--balance ${asset}: '${amount}' is not an amount >= 0 written as a plain decimal (e.g. 10000 or 0.5)`);
    const value = new D(amount);
    if (value.trunc().gt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`--balance ${asset}: '${amount}' is more than the ${Number.MAX_SAFE_INTEGER} whole units a balance can hold`);
    if (value.decimalPlaces() > AMOUNT_SCALE) throw new RangeError(`--balance ${asset}: '${amount}' has more than the ${AMOUNT_SCALE} decimals a balance can hold`);
    out[key] = amount;
  }
  return out;
}
