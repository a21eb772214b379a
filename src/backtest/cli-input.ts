/**
 * Backtest inputs as typed on a command line, turned into values with messages a person can act
 * on: `--param fast=10` (typed by the strategy's own params schema: numbers for number fields,
 * true / false for booleans, text otherwise, so decimals stay exact), `--balance PHP=10000`.
 * Every problem is thrown as a RangeError naming the input; the CLI turns it into a usage error.
 */
import { isDecimalText } from '../core/money/decimal.ts';
import { fieldTypeOf } from '../strategy/params.ts';
import type { ParamsSchema } from '../strategy/params.ts';
import type { z } from 'zod';

/** The params schema's field names (empty when it has no plain shape). */
export function paramNames(schema: ParamsSchema): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

/** `k=v` pairs -> raw params, each value typed by its schema field (unknown keys stay text: the schema reports them). */
export function parseParamArgs(pairs: readonly string[], schema: ParamsSchema): Record<string, unknown> {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new RangeError(`--param ${JSON.stringify(pair)}: write it as name=value, e.g. --param fast=10`);
    const key = pair.slice(0, eq).trim();
    const text = pair.slice(eq + 1).trim();
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
    const type = field === undefined ? undefined : fieldTypeOf(field);
    if (type === 'number' || type === 'int') out[key] = text !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
    else if (type === 'boolean') out[key] = text === 'true' ? true : text === 'false' ? false : text;
    else if (type === 'array') out[key] = text === '' ? [] : text.split(',').map((x) => x.trim());
    else out[key] = text;
  }
  return out;
}

/** `ASSET=AMOUNT` pairs -> balances. */
export function parseBalanceArgs(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const m = /^([A-Za-z0-9]{1,20})=(.+)$/.exec(pair.trim());
    if (!m) throw new RangeError(`--balance ${JSON.stringify(pair)}: write it as ASSET=AMOUNT, e.g. --balance PHP=10000`);
    const [, asset, amount] = m as unknown as [string, string, string];
    if (!isDecimalText(amount) || amount.trim().startsWith('-')) throw new RangeError(`--balance ${asset}: ${JSON.stringify(amount)} is not an amount >= 0`);
    out[asset.toUpperCase()] = amount.trim();
  }
  return out;
}
