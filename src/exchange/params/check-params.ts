/**
 * Checks a whole parameter set against an endpoint's declarations and rules (spec section 4 and
 * its Rules paragraphs), before the client sends it or when the sandbox receives it.
 * Returns every violation, each naming the parameter, with the venue code for the mistake.
 */
import type { ParamRule, ParamShape, ParamViolation, ViolationReason } from './dsl.ts';
import { VIOLATION_CODES } from './dsl.ts';
import { isAbsent, normalizeParam, type NormalizeOptions } from './normalize.ts';

export interface CheckedParams {
  /** Normalised values by name (ids and decimals as strings, integers as numbers). */
  values: Record<string, unknown>;
  /** Name and wire text, in declaration order, absent parameters left out. */
  wire: [string, string][];
  violations: ParamViolation[];
}

export interface CheckOptions extends NormalizeOptions {
  /** Parameters not declared for the endpoint: reported (default) or passed through as strings. */
  unknown?: 'reject' | 'pass';
}

const violation = (param: string, reason: ViolationReason, message: string, code?: number): ParamViolation => ({
  param,
  reason,
  message,
  code: code ?? VIOLATION_CODES[reason],
});

export function checkParams(
  params: ParamShape,
  rules: readonly ParamRule[] | undefined,
  input: Readonly<Record<string, unknown>>,
  options: CheckOptions = {},
): CheckedParams {
  const values: Record<string, unknown> = {};
  const wire: [string, string][] = [];
  const violations: ParamViolation[] = [];

  for (const [name, spec] of Object.entries(params)) {
    const raw = input[name];
    if (isAbsent(raw)) {
      if (spec.required) violations.push(violation(name, 'missing', `parameter '${name}' is required`));
      continue;
    }
    const result = normalizeParam(name, spec, raw, options);
    if (!result.ok) {
      violations.push(violation(name, result.reason, result.message));
      continue;
    }
    values[name] = result.value;
    wire.push([name, result.wire]);
  }

  for (const [name, raw] of Object.entries(input)) {
    if (name in params || isAbsent(raw)) continue;
    if (options.unknown === 'pass') {
      const text = typeof raw === 'object' ? JSON.stringify(raw) : String(raw);
      values[name] = raw;
      wire.push([name, text]);
    } else {
      violations.push(violation(name, 'not-allowed', `parameter '${name}' is not a parameter of this endpoint`));
    }
  }

  for (const rule of rules ?? []) {
    const v = checkRule(rule, values);
    if (v) violations.push(v);
  }
  return { values, wire, violations };
}

const present = (values: Record<string, unknown>, name: string) => values[name] !== undefined;
const DAY = 86_400_000;

function checkRule(rule: ParamRule, values: Record<string, unknown>): ParamViolation | undefined {
  switch (rule.kind) {
    case 'atLeastOne':
      return rule.params.some((n) => present(values, n))
        ? undefined
        : violation(rule.params.join('|'), 'missing', rule.message ?? `one of ${quoteList(rule.params)} is required`, rule.code);
    case 'exactlyOne': {
      const sent = rule.params.filter((n) => present(values, n));
      if (sent.length === 1) return undefined;
      return sent.length === 0
        ? violation(rule.params.join('|'), 'missing', `one of ${quoteList(rule.params)} is required`)
        : violation(sent.join('|'), 'conflict', `parameters ${quoteList(sent)} should not be both set`);
    }
    case 'notBoth':
      return present(values, rule.params[0]) && present(values, rule.params[1])
        ? violation(rule.params.join('|'), 'conflict', `parameters ${quoteList(rule.params)} should not be both set`)
        : undefined;
    case 'requires':
      return present(values, rule.param) && !present(values, rule.requires)
        ? violation(rule.requires, 'missing', `parameter '${rule.requires}' is required when '${rule.param}' is sent`)
        : undefined;
    case 'maxSpan': {
      if (rule.when !== undefined && !present(values, rule.when)) return undefined;
      const start = values[rule.start];
      const end = values[rule.end];
      if (typeof start !== 'number' || typeof end !== 'number') return undefined;
      if (end < start) return violation(rule.end, 'span', `parameter '${rule.end}' must not be before '${rule.start}'`);
      if (end - start >= rule.maxSpanMs) {
        const days = rule.maxSpanMs / DAY;
        const why = rule.when ? ` when '${rule.when}' is sent` : '';
        return violation(rule.end, 'span', `the span between '${rule.start}' and '${rule.end}' must be under ${days} days${why}`);
      }
      return undefined;
    }
    case 'check': {
      const found = rule.test(values);
      return found ? violation(found.param, found.reason, found.message) : undefined;
    }
  }
}

function quoteList(names: readonly string[]): string {
  return names.map((n) => `'${n}'`).join(', ');
}
