/**
 * JSON for metrics. JSON has no Infinity: JSON.stringify would write `null` for a profit factor
 * with no losing trade, losing the meaning. These helpers write non-finite numbers as the strings
 * "Infinity" / "-Infinity" (and NaN, which computeMetrics never produces, as null), and read
 * them back.
 */
import type { BacktestMetrics } from '../types.ts';

export type JsonNumber = number | 'Infinity' | '-Infinity' | null;

export function jsonNumber(x: number): JsonNumber {
  if (Number.isFinite(x)) return x;
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return null;
}

export function fromJsonNumber(x: JsonNumber | undefined): number {
  if (x === 'Infinity') return Infinity;
  if (x === '-Infinity') return -Infinity;
  return typeof x === 'number' ? x : NaN;
}

export type JsonMetrics = { [K in keyof BacktestMetrics]: JsonNumber };

export function metricsToJson(m: BacktestMetrics): JsonMetrics {
  const out = {} as Record<string, JsonNumber>;
  for (const [k, v] of Object.entries(m)) out[k] = jsonNumber(v as number);
  return out as JsonMetrics;
}

export function metricsFromJson(j: JsonMetrics): BacktestMetrics {
  const out = {} as Record<string, number>;
  for (const [k, v] of Object.entries(j)) out[k] = fromJsonNumber(v);
  return out as unknown as BacktestMetrics;
}

/** A JSON.stringify replacer that keeps infinities as strings anywhere in a value. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isFinite(value) ? jsonNumber(value) : value;
}
