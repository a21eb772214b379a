/**
 * Strategy parameters: a zod v4 object with defaults, parsed strictly (unknown keys rejected) and
 * with every problem reported at once with its path, worded for a person editing a config file:
 * `param 'fast': expected integer >= 2, got "x"` (design rule 10, like the config loader).
 * The parsed params are deep-frozen.
 */
import { z } from 'zod';
import { D, isDecimalText, toWire } from '../core/money/decimal.ts';
import { describeValue, joinPath } from './describe-value.ts';
import { StrategyParamsError } from './errors.ts';
import { deepFreeze } from './freeze.ts';
import { INTERVALS } from './types.ts';

/** Any zod object schema: what `params` must be. */
export type ParamsSchema = z.ZodObject;

type Def = { type: string; checks?: { _zod: { def: Record<string, unknown> } }[]; innerType?: z.ZodType; in?: z.ZodType; entries?: Record<string, unknown>; values?: unknown[] };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const WRAPPERS = ['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch', 'nonoptional'];

/** A field's schema and the ones it wraps, outermost first: through optional/default/nullable/readonly/catch and into a pipe's input. */
function layers(schema: z.ZodType): z.ZodType[] {
  const out = [schema];
  for (let i = 0; i < 10; i++) {
    const d = defOf(out[out.length - 1] as z.ZodType);
    if (d.innerType && WRAPPERS.includes(d.type)) out.push(d.innerType);
    else if (d.type === 'pipe' && d.in) out.push(d.in);
    else break;
  }
  return out;
}

/** Unwrap the wrappers so the field's own type shows. */
function unwrap(schema: z.ZodType): z.ZodType {
  const l = layers(schema);
  return l[l.length - 1] as z.ZodType;
}

/** The zod type of a field under its wrappers ('number', 'string', 'boolean', 'array', ...). */
export function fieldTypeOf(schema: z.ZodType): string {
  return defOf(unwrap(schema)).type;
}

/** The schema of the field at `path`, or undefined when it cannot be followed. */
function fieldAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType | undefined {
  let s: z.ZodType | undefined = schema;
  for (const key of path) {
    if (!s) return undefined;
    const inner = unwrap(s) as unknown as { shape?: Record<string, z.ZodType>; element?: z.ZodType };
    s = typeof key === 'number' ? inner.element : inner.shape?.[String(key)];
  }
  return s;
}

/** "integer >= 2", "number > 0 and <= 1", "string of 1..8 characters", "one of 'a', 'b'". */
export function describeSchema(schema: z.ZodType): string | undefined {
  const s = unwrap(schema);
  const d = defOf(s);
  const checks = (d.checks ?? []).map((c) => c._zod.def);
  switch (d.type) {
    case 'number': {
      const int = checks.some((c) => c['check'] === 'number_format' && (c['format'] === 'safeint' || c['format'] === 'int32'));
      const bounds = checks.flatMap((c) => {
        if (c['check'] === 'greater_than') return [`${c['inclusive'] ? '>=' : '>'} ${String(c['value'])}`];
        if (c['check'] === 'less_than') return [`${c['inclusive'] ? '<=' : '<'} ${String(c['value'])}`];
        if (c['check'] === 'multiple_of') return [`a multiple of ${String(c['value'])}`];
        return [];
      });
      return [int ? 'integer' : 'number', bounds.join(' and ')].filter(Boolean).join(' ');
    }
    case 'string': {
      const min = checks.find((c) => c['check'] === 'min_length')?.['minimum'];
      const max = checks.find((c) => c['check'] === 'max_length')?.['maximum'];
      const len = checks.find((c) => c['check'] === 'length_equals')?.['length'];
      if (len !== undefined) return `string of ${String(len)} characters`;
      if (min !== undefined && max === undefined) return `string of at least ${String(min)} character${min === 1 ? '' : 's'}`;
      if (min !== undefined || max !== undefined) return `string of ${String(min ?? 0)}..${String(max)} characters`;
      return 'string';
    }
    case 'enum':
      return `one of ${Object.values(d.entries ?? {}).map((v) => `'${String(v)}'`).join(', ')}`;
    case 'literal':
      return (d.values ?? []).map((v) => JSON.stringify(v)).join(' or ');
    case 'boolean':
      return 'true or false';
    case 'array': {
      // How many, then what each item accepts: "a list of 2, each string of at least 1 character".
      const item = describeSchema((d as { element?: z.ZodType }).element as z.ZodType);
      const len = checks.find((c) => c['check'] === 'length_equals')?.['length'];
      const min = checks.find((c) => c['check'] === 'min_length')?.['minimum'];
      const max = checks.find((c) => c['check'] === 'max_length')?.['maximum'];
      const count =
        len !== undefined ? ` of ${String(len)}` : min !== undefined && max !== undefined ? ` of ${String(min)}..${String(max)}` : min !== undefined ? ` of at least ${String(min)}` : max !== undefined ? ` of at most ${String(max)}` : '';
      return `a list${count}${item === undefined ? '' : `, each ${item}`}`;
    }
    case 'union': {
      const options = ((d as { options?: z.ZodType[] }).options ?? []).map((o) => describeSchema(o));
      return options.every(Boolean) ? options.join(' or ') : undefined;
    }
    case 'object':
      return 'an object';
    default:
      return undefined;
  }
}

/** One parameter of a schema as `halyard strategies` shows it. */
export interface ParamInfo {
  readonly name: string;
  /** What it accepts (describeSchema), when that can be said. */
  readonly accepts: string | undefined;
  /** Its default, when it has one. */
  readonly default?: unknown;
  /** Neither a default nor optional: it must be given. */
  readonly required: boolean;
  readonly description: string | undefined;
}

/** The parameters of a strategy's schema, in its order. */
export function describeParams(schema: ParamsSchema): ParamInfo[] {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.entries(shape).map(([name, field]) => {
    let optional = false;
    let dflt: { value: unknown } | undefined;
    let description: string | undefined;
    for (const s of layers(field)) {
      description ??= (s as { description?: string }).description;
      const d = defOf(s) as Def & { defaultValue?: unknown };
      if ((d.type === 'default' || d.type === 'prefault') && dflt === undefined) dflt = { value: typeof d.defaultValue === 'function' ? (d.defaultValue as () => unknown)() : d.defaultValue };
      else if (d.type === 'optional') optional = true;
    }
    return { name, accepts: description ?? describeSchema(field), ...(dflt ? { default: dflt.value } : {}), required: !optional && dflt === undefined, description };
  });
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v = raw;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key as string];
  }
  return v;
}

/** One issue as a sentence naming the parameter. */
export function formatParamIssue(issue: z.core.$ZodIssue, schema: z.ZodType, raw: unknown): string[] {
  const name = (path: readonly PropertyKey[]) => (path.length === 0 ? 'params' : `param '${joinPath('', path)}'`);
  if (issue.code === 'unrecognized_keys') {
    const owner = unwrap(fieldAt(schema, issue.path) ?? schema) as unknown as { shape?: Record<string, unknown> };
    const known = Object.keys(owner.shape ?? {});
    return issue.keys.map((k) => `${name([...issue.path, k])}: unknown parameter${known.length ? ` (known: ${known.join(', ')})` : ''}`);
  }
  const value = valueAt(raw, issue.path);
  const field = fieldAt(schema, issue.path);
  const wanted = field ? describeSchema(field) : undefined;
  switch (issue.code) {
    case 'invalid_type':
    case 'too_small':
    case 'too_big':
    case 'not_multiple_of':
    case 'invalid_value':
    case 'invalid_union':
      return [`${name(issue.path)}: expected ${wanted ?? lowerFirst(issue.message)}, got ${describeValue(value)}`];
    default:
      return [`${name(issue.path)}: ${issue.message}${issue.code === 'custom' ? '' : `, got ${describeValue(value)}`}`];
  }
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/**
 * Unknown keys inside nested objects (zod's strict() covers only the top level): walk the raw
 * input along the schema's object shapes and lists.
 */
function nestedUnknownKeys(schema: z.ZodType, raw: unknown, path: PropertyKey[], out: string[]): void {
  if (typeof raw !== 'object' || raw === null) return;
  const s = unwrap(schema) as unknown as { shape?: Record<string, z.ZodType>; element?: z.ZodType };
  if (Array.isArray(raw)) {
    if (s.element) raw.forEach((item, i) => nestedUnknownKeys(s.element as z.ZodType, item, [...path, i], out));
    return;
  }
  if (!s.shape) return;
  for (const [k, v] of Object.entries(raw)) {
    const field = s.shape[k];
    if (field) nestedUnknownKeys(field, v, [...path, k], out);
    else if (path.length > 0) out.push(`param '${joinPath('', [...path, k])}': unknown parameter (known: ${Object.keys(s.shape).join(', ')})`);
  }
}

/** Parse raw params (undefined = all defaults) strictly; throws StrategyParamsError listing every issue. */
export function parseParams<S extends ParamsSchema>(strategy: string, schema: S, raw: unknown): Readonly<z.output<S>> {
  const input = raw === undefined ? {} : raw;
  const result = schema.strict().safeParse(input);
  const issues: string[] = result.success ? [] : result.error.issues.flatMap((issue) => formatParamIssue(issue, schema, input));
  nestedUnknownKeys(schema, input, [], issues);
  if (!result.success || issues.length) throw new StrategyParamsError(strategy, [...new Set(issues)]);
  return deepFreeze(result.data as z.output<S>);
}

/**
 * The problems of one parameter's value against that parameter's own schema alone: its type,
 * bounds and format, not the rules across parameters (an object-level refine such as sma-crossover's
 * "slow must be greater than fast", which depends on the other values). Empty when the value is
 * fine on its own. Worded as parseParams words them.
 */
export function paramValueIssues(schema: ParamsSchema, name: string, value: unknown): string[] {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const field = Object.hasOwn(shape, name) ? shape[name] : undefined;
  if (field === undefined) return [`param '${name}': unknown parameter (known: ${Object.keys(shape).join(', ')})`];
  const one = z.object({ [name]: field });
  const raw = { [name]: value };
  const result = one.safeParse(raw);
  const issues = result.success ? [] : result.error.issues.flatMap((issue) => formatParamIssue(issue, one, raw));
  nestedUnknownKeys(one, raw, [], issues);
  return [...new Set(issues)];
}

/**
 * A money parameter: a decimal string ("0.01") or a plain number in the config, always a decimal
 * string after parsing (numbers are read by their shortest form, 0.1 -> "0.1"). Positive unless
 * `{ allowZero: true }`.
 */
export function decimalParam(options: { allowZero?: boolean } = {}) {
  return z.union([z.string(), z.number()]).transform((value, ctx) => {
    const ok = typeof value === 'number' ? Number.isFinite(value) : isDecimalText(value);
    if (!ok) {
      ctx.addIssue({ code: 'custom', message: `expected a decimal such as "0.01", got ${describeValue(value)}` });
      return z.NEVER;
    }
    const text = toWire(typeof value === 'number' ? new D(value) : value);
    const d = new D(text);
    if (d.isNegative() || (d.isZero() && !options.allowZero)) {
      ctx.addIssue({ code: 'custom', message: `expected a decimal ${options.allowZero ? '>= 0' : '> 0'}, got ${describeValue(value)}` });
      return z.NEVER;
    }
    return text;
  }).describe(`a decimal ${options.allowZero ? '>= 0' : '> 0'}`);
}

/** A kline interval parameter (spec 2.1). */
export function intervalParam() {
  return z.enum(INTERVALS).describe('a kline interval (1m, 5m, 1h, 1d ... 1M)');
}
