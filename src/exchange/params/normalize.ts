/**
 * One parameter value -> its normalised value and wire text, or a violation (spec section 4
 * notation). Accepts typed values from code and raw strings from the CLI or the wire, so the client
 * and the sandbox read parameters the same way.
 */
import { dec, isDecimalText, toWire } from '../../core/money/decimal.ts';
import type { AnyParam, ViolationReason } from './dsl.ts';

export type Normalized =
  | { ok: true; value: unknown; wire: string }
  | { ok: false; reason: ViolationReason; message: string };

const INTEGER = /^-?\d+$/;

const bad = (reason: ViolationReason, message: string): Normalized => ({ ok: false, reason, message });

/** True for the values that count as "not sent" (the official collection sends `orderId=` for absent). */
export function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

export interface NormalizeOptions {
  /**
   * A JS number for a DECIMAL parameter: `accept` (the sandbox: a JSON body carries numbers as
   * written) or `refuse` (the client: never a float on the order path; 0.1 + 0.2 would go out as
   * 0.30000000000000004). Default `accept`.
   */
  readonly decimalNumbers?: 'accept' | 'refuse';
}

export function normalizeParam(name: string, spec: AnyParam, value: unknown, options: NormalizeOptions = {}): Normalized {
  if (spec.kind === 'DECIMAL' && typeof value === 'number' && options.decimalNumbers === 'refuse') {
    return bad(
      'malformed',
      `parameter '${name}' must be a decimal string or a Decimal, not the number ${String(value)}: a float cannot carry an exact amount (write '${plainNumber(value)}' if that is the amount meant)`,
    );
  }
  const read = strictly(name, spec, value);
  const fallback: unknown = spec.options.invalidMeans;
  if (read.ok || fallback === undefined) return read;
  return { ok: true, value: fallback, wire: String(fallback) };
}

/** The value as declared, or why it is not one. */
function strictly(name: string, spec: AnyParam, value: unknown): Normalized {
  const o = spec.options;
  switch (spec.kind) {
    case 'STRING': {
      if (typeof value !== 'string' && typeof value !== 'number') return bad('malformed', `parameter '${name}' must be a string`);
      const text = String(value);
      if (o.maxLength !== undefined && text.length > o.maxLength)
        return bad('too-long', `parameter '${name}' is longer than ${o.maxLength} characters`);
      if (o.minLength !== undefined && text.length < o.minLength)
        return bad('malformed', `parameter '${name}' is shorter than ${o.minLength} characters`);
      if (o.pattern && !o.pattern.test(text))
        return bad('malformed', `parameter '${name}' is not valid: ${o.patternText ?? `must match ${o.pattern}`}`);
      return { ok: true, value: text, wire: text };
    }
    case 'ID': {
      const text = typeof value === 'bigint' ? value.toString() : String(value);
      if (typeof value === 'number' && !Number.isSafeInteger(value))
        return bad('malformed', `parameter '${name}' lost precision as a number; pass ids as strings`);
      if (!INTEGER.test(text)) return bad('malformed', `parameter '${name}' must be an integer id, got ${JSON.stringify(value)}`);
      return { ok: true, value: text, wire: text };
    }
    case 'LONG':
    case 'INT': {
      const text = String(value).trim();
      if (!INTEGER.test(text)) return bad('malformed', `parameter '${name}' must be an integer, got ${JSON.stringify(value)}`);
      const n = Number(text);
      if (!Number.isSafeInteger(n)) return bad('out-of-range', `parameter '${name}' is out of range`);
      if (o.min !== undefined && n < o.min) return bad('out-of-range', `parameter '${name}' must be >= ${o.min}`);
      if (o.max !== undefined && n > o.max) return bad('out-of-range', `parameter '${name}' must be <= ${o.max}`);
      return { ok: true, value: n, wire: String(n) };
    }
    case 'DECIMAL': {
      const ok = typeof value === 'number' ? Number.isFinite(value) : typeof value === 'string' ? isDecimalText(value) : isDecimalInstance(value);
      if (!ok) return bad('malformed', `parameter '${name}' must be a decimal number, got ${JSON.stringify(value)}`);
      const d = dec(value as string);
      if (o.min !== undefined && d.lt(o.min)) return bad('out-of-range', `parameter '${name}' must be >= ${o.min}`);
      if (o.max !== undefined && d.gt(o.max)) return bad('out-of-range', `parameter '${name}' must be <= ${o.max}`);
      const wire = toWire(d);
      return { ok: true, value: wire, wire };
    }
    case 'ENUM': {
      const text = String(value);
      const values = spec.values ?? [];
      const found = o.caseInsensitive ? values.find((v) => v.toUpperCase() === text.toUpperCase()) : values.find((v) => v === text);
      if (found === undefined) return bad('malformed', `parameter '${name}' must be one of ${values.join(', ')}, got ${JSON.stringify(value)}`);
      return { ok: true, value: found, wire: found };
    }
    case 'BOOLEAN': {
      if (value === true || value === 'true') return { ok: true, value: true, wire: 'true' };
      if (value === false || value === 'false') return { ok: true, value: false, wire: 'false' };
      return bad('malformed', `parameter '${name}' must be true or false`);
    }
    case 'JSON': {
      if (typeof value === 'string') {
        try {
          const parsed: unknown = JSON.parse(value);
          return { ok: true, value: parsed, wire: JSON.stringify(parsed) };
        } catch {
          return bad('malformed', `parameter '${name}' must be JSON`);
        }
      }
      return { ok: true, value, wire: JSON.stringify(value) };
    }
    case 'LIST': {
      const list = toList(value);
      if (!list) return bad('malformed', `parameter '${name}' must be a list of strings`);
      if (o.maxLength !== undefined && list.length > o.maxLength)
        return bad('out-of-range', `parameter '${name}' has more than ${o.maxLength} entries`);
      return { ok: true, value: list, wire: JSON.stringify(list) };
    }
  }
}

/** The number as plain decimal text (1e-8 -> 0.00000001), for messages. */
function plainNumber(value: number): string {
  return Number.isFinite(value) ? toWire(value) : String(value);
}

function isDecimalInstance(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { toFixed?: unknown }).toFixed === 'function' && 'd' in value;
}

/** A list from an array, JSON-array text (`["A","B"]`, possibly `%5B..%5D`) or a comma list (notes 2.1). */
export function toList(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
  if (typeof value !== 'string') return undefined;
  let text = value.trim();
  if (/^%5B/i.test(text)) text = safeDecode(text);
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      return Array.isArray(parsed) && parsed.every((v) => typeof v === 'string') ? (parsed as string[]) : undefined;
    } catch {
      return undefined;
    }
  }
  return text.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
