/**
 * Parameter DSL for the endpoint table (spec section 4 notation: `name TYPE req|opt`).
 *
 * One declaration serves three readers: the client (typed method parameters, checks before
 * sending), the sandbox (parsing raw wire strings with the venue's error codes) and the docs /
 * CLI (`--help` lists each endpoint's parameters).
 */
import type { Dec } from '../../core/money/decimal.ts';

/**
 * What a DECIMAL parameter takes in code: a decimal string or a Decimal, never a JS number (the
 * client refuses floats on the order path: 0.1 + 0.2 is 0.30000000000000004).
 */
export type DecimalInput = string | Dec;

export type ParamKind =
  /** Free text. */
  | 'STRING'
  /** An integer id that can exceed 2^53: always a decimal string in code. */
  | 'ID'
  /** A 64-bit integer that fits a double in practice (timestamps in ms). */
  | 'LONG'
  | 'INT'
  | 'DECIMAL'
  | 'ENUM'
  | 'BOOLEAN'
  /** A JSON value sent as JSON (fiat `extendInfo`). */
  | 'JSON'
  /** A list of strings sent as JSON-array text `["A","B"]` (ticker `symbols`, payment collectors). */
  | 'LIST';

export interface ParamOptions<T> {
  /** Inclusive lower and upper bounds for numeric kinds. */
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  /** Wire text must match (e.g. fiat internalOrderId `^[1-9]\d{9,19}$`). */
  pattern?: RegExp;
  /** Human words for the pattern, used in the error. */
  patternText?: string;
  /** The venue's default when omitted (documentation; the sandbox applies it). */
  defaultValue?: T;
  /**
   * What a value the declaration refuses (wrong kind, out of bounds) means, where the venue reads
   * it so instead of answering an error (spec 4.9 sub-history `type`: "missing or invalid means 2").
   */
  invalidMeans?: T;
  /** Substituted into the endpoint path (`{name}` or optional `{name?}`). */
  inPath?: boolean;
  /** The value is matched case-insensitively (symbol in avgPrice). */
  caseInsensitive?: boolean;
  /** One line for `--help` and docs. */
  doc?: string;
}

/** One parameter. `T` is the value type in code, `R` whether it is mandatory. */
export class Param<T, R extends boolean = false> {
  declare readonly _value: T;
  readonly kind: ParamKind;
  readonly required: R;
  readonly values: readonly string[] | undefined;
  readonly options: Readonly<ParamOptions<T>>;

  constructor(kind: ParamKind, required: R, options: ParamOptions<T> = {}, values?: readonly string[]) {
    this.kind = kind;
    this.required = required;
    this.options = options;
    this.values = values;
  }

  /** Mark mandatory (`req` in the spec). */
  req(): Param<T, true> {
    return new Param<T, true>(this.kind, true, this.options, this.values);
  }

  /** Add or override options. */
  with(options: ParamOptions<T>): Param<T, R> {
    return new Param<T, R>(this.kind, this.required, { ...this.options, ...options }, this.values);
  }
}

export const p = {
  string: (o?: ParamOptions<string>) => new Param<string>('STRING', false, o),
  id: (o?: ParamOptions<string>) => new Param<string>('ID', false, o),
  long: (o?: ParamOptions<number>) => new Param<number>('LONG', false, o),
  /**
   * `T` narrows the value type to a closed set of codes (`p.int<1 | 2>`), given explicitly: it is
   * never inferred from the options (a `defaultValue: 0` must not make the type `0`).
   */
  int: <T extends number = number>(o?: ParamOptions<NoInfer<T>>) => new Param<T>('INT', false, o),
  decimal: (o?: ParamOptions<DecimalInput>) => new Param<DecimalInput>('DECIMAL', false, o),
  enum: <const V extends readonly string[]>(values: V, o?: ParamOptions<V[number]>) =>
    new Param<V[number]>('ENUM', false, o, values),
  bool: (o?: ParamOptions<boolean>) => new Param<boolean>('BOOLEAN', false, o),
  json: <T = unknown>(o?: ParamOptions<T>) => new Param<T>('JSON', false, o),
  list: (o?: ParamOptions<readonly string[]>) => new Param<readonly string[]>('LIST', false, o),
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyParam = Param<any, boolean>;
export type ParamShape = Readonly<Record<string, AnyParam>>;

type RequiredKeys<P extends ParamShape> = { [K in keyof P]: P[K] extends Param<unknown, true> ? K : never }[keyof P];
type OptionalKeys<P extends ParamShape> = Exclude<keyof P, RequiredKeys<P>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The typed parameter object of an endpoint, derived from its declaration. */
export type ParamsOf<P extends ParamShape> = Simplify<
  { [K in RequiredKeys<P>]: P[K]['_value'] } & { [K in OptionalKeys<P>]?: P[K]['_value'] | undefined }
>;

/**
 * Cross-parameter rules of the spec, as data so the client and the sandbox apply the same ones.
 * Spans are in ms; `maxSpanMs` means the spec's "under N days" (end - start < N days).
 */
export type ParamRule =
  /** At least one of these must be present (cancel: orderId or origClientOrderId). */
  | { kind: 'atLeastOne'; params: readonly string[]; code?: number; message?: string }
  /** Exactly one (convert get-quote: sourceAmount or targetAmount). */
  | { kind: 'exactlyOne'; params: readonly string[] }
  /** Not both (ticker symbol and symbols; deposit status and statuses). */
  | { kind: 'notBoth'; params: readonly [string, string] }
  /** `param` may only be sent together with `requires`. */
  | { kind: 'requires'; param: string; requires: string }
  /** end - start must be under `maxSpanMs` when both are sent (`when`: only if that param is sent). */
  | { kind: 'maxSpan'; start: string; end: string; maxSpanMs: number; when?: string }
  /** Anything else: returns the offending parameter and reason, or undefined. */
  | {
      kind: 'check';
      description: string;
      test: (values: Readonly<Record<string, unknown>>) => { param: string; reason: ViolationReason; message: string } | undefined;
    };

export type ViolationReason =
  | 'missing'
  | 'malformed'
  | 'out-of-range'
  | 'too-long'
  | 'not-allowed'
  | 'conflict'
  | 'span';

/** One broken rule, naming the parameter. */
export interface ParamViolation {
  param: string;
  reason: ViolationReason;
  message: string;
  /** Venue code for the same mistake (spec 7.3). */
  code: number;
}

/** The venue code for each reason (spec 7.3): -1105 missing, -1107 conflict, -1106 not required, else -1025. */
export const VIOLATION_CODES: Readonly<Record<ViolationReason, number>> = {
  missing: -1105,
  malformed: -1025,
  'out-of-range': -1025,
  'too-long': -1025,
  'not-allowed': -1106,
  conflict: -1107,
  span: -1025,
};
