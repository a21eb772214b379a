/**
 * The parameter grid of a sweep: the cartesian product of the axes over the base params. Every
 * value of every axis is first checked alone against its parameter's own schema (type, bounds,
 * format): one that fails is bad input and throws a SweepSpecError naming the parameter and the
 * value, whatever its place in the list. Each point is then checked against the whole schema;
 * points that fail only a rule across parameters (sma-crossover's slow > fast) are skipped and
 * reported with the schema's words, not run. Axis values are given the parameter's type: numbers
 * (plain decimals) for number fields, true/false for booleans, text for the rest (decimal params
 * take decimal text, enums their names). The grid keeps the axes so typed: a sweep's JSON lists
 * each axis's values as its points hold them (money stays decimal text at every boundary).
 */
import type { AnyStrategyDefinition } from '../../strategy/define.ts';
import { StrategyParamsError } from '../../strategy/errors.ts';
import { paramValueIssues, parseParams } from '../../strategy/params.ts';
import { isPlainNumberText } from '../sources/cli-input.ts';
import { SweepSpecError } from './sweep-spec.ts';
import type { SweepAxis } from './sweep-spec.ts';

export type ParamValue = string | number | boolean;

export interface GridPoint {
  /** The swept values only (what the tables show). */
  values: Record<string, ParamValue>;
  /** Base params with the swept values applied (what the backtest gets). */
  params: Record<string, unknown>;
}

export interface SkippedPoint extends Partial<TrialOrder> {
  values: Record<string, ParamValue>;
  reason: string;
}

/** Where a TPE search tried a point (sweep-tpe-rounds.ts): its place in the order, 1-based, and its round. */
export interface TrialOrder {
  trial: number;
  round: number;
}

export interface SweepGrid {
  /** The axes with their values typed as the points' values are (what the sweep JSON lists). */
  axes: TypedAxis[];
  points: GridPoint[];
  skipped: SkippedPoint[];
  /**
   * Absent: every point runs. A random search: `points` and `skipped` are its sample
   * (sweep-sample.ts). A TPE search: they are the whole grid, which runSweep proposes from.
   */
  search?: SweepSearch;
}

export type SweepSearch = RandomSearch | TpeSearch;

/** A random search: `trials` distinct points of the grid's `gridSize`, drawn with `seed`. */
export interface RandomSearch {
  kind: 'random';
  trials: number;
  seed: number;
  /** Every combination of the axes, schema-rejected ones included (what `trials` is drawn from). */
  gridSize: number;
}

/**
 * A TPE search (sweep-tpe.ts): `trials` distinct points of the grid's `gridSize`, the first
 * `startup` drawn at random with `seed`, the rest proposed `batch` at a time from the results so
 * far. The grid gives kind, trials, seed and gridSize; the run adds the rest.
 */
export interface TpeSearch {
  kind: 'tpe';
  trials: number;
  seed: number;
  gridSize: number;
  /** Random points of round 1 (random search's first draws with the same seed). */
  startup?: number;
  /** Points proposed per later round: a function of `trials` alone (tpeBatch), never of the workers, so a seed repeats its search on any pool. */
  batch?: number;
  /** Rounds run, the startup one included. */
  rounds?: number;
}

/** Largest grid we will build; past this a sweep is a typo or needs a smarter search. */
export const MAX_GRID_POINTS = 100_000;

type Def = { type?: string; innerType?: unknown; in?: unknown };
const defOf = (s: unknown): Def => (s as { _zod?: { def?: Def } })?._zod?.def ?? {};

/** The field's own type name, through optional/default/nullable/readonly wrappers. */
function fieldType(field: unknown): string | undefined {
  let s = field;
  for (let i = 0; i < 10 && s; i++) {
    const d = defOf(s);
    if (d.innerType && ['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch', 'nonoptional'].includes(d.type ?? '')) s = d.innerType;
    else return d.type;
  }
  return undefined;
}

function coerce(axis: SweepAxis, type: string | undefined): ParamValue[] {
  if (type === 'number') {
    return axis.values.map((v) => {
      if (isPlainNumberText(v)) return Number(v);
      if (Number.isFinite(Number(v))) throw new SweepSpecError(axis.spec, `parameter '${axis.name}': '${v}' is not a plain decimal number (digits, an optional sign and fraction)`);
      throw new SweepSpecError(axis.spec, `parameter '${axis.name}' is a number; '${v}' is not`);
    });
  }
  if (type === 'boolean') {
    return axis.values.map((v) => {
      if (v === 'true' || v === 'false') return v === 'true';
      throw new SweepSpecError(axis.spec, `parameter '${axis.name}' is true or false; '${v}' is neither`);
    });
  }
  return axis.values;
}

/** An axis with its values typed for its parameter. */
export interface TypedAxis {
  name: string;
  values: ParamValue[];
}

/**
 * The axes typed by the strategy's schema, every value checked alone against its parameter's own
 * schema: an unknown parameter, a value of the wrong type or out of the field's bounds throws a
 * SweepSpecError naming the spec, the parameter and the value. Rules across parameters are not
 * checked here (buildGrid skips the points that break them).
 */
export function typeAxes(definition: AnyStrategyDefinition, axes: readonly SweepAxis[]): TypedAxis[] {
  const shape = (definition.params as unknown as { shape: Record<string, unknown> }).shape;
  return axes.map((axis) => {
    if (!Object.hasOwn(shape, axis.name)) throw new SweepSpecError(axis.spec, `strategy '${definition.name}' has no parameter '${axis.name}' (known: ${Object.keys(shape).join(', ')})`);
    // Typed, then each value once: `fast=5,5.0` (or a range and a list that overlap) is one point, not two identical runs.
    const values = [...new Set(coerce(axis, fieldType(shape[axis.name])))];
    const issues = values.flatMap((v) => paramValueIssues(definition.params, axis.name, v));
    if (issues.length) throw new SweepSpecError(axis.spec, [...new Set(issues)].join('; '));
    return { name: axis.name, values };
  });
}

export function buildGrid(definition: AnyStrategyDefinition, axes: readonly SweepAxis[], baseParams: Record<string, unknown> = {}): SweepGrid {
  const typed = typeAxes(definition, axes);
  const size = typed.reduce((n, a) => n * a.values.length, 1);
  if (size > MAX_GRID_POINTS) throw new SweepSpecError(axes.map((a) => a.spec).join(' '), `${size} combinations is more than ${MAX_GRID_POINTS}`);

  const points: GridPoint[] = [];
  const skipped: SkippedPoint[] = [];
  const combo: Record<string, ParamValue> = {};
  const visit = (i: number): void => {
    if (i === typed.length) {
      const values = { ...combo };
      const params = { ...baseParams, ...values };
      try {
        parseParams(definition.name, definition.params, params);
        points.push({ values, params });
      } catch (e) {
        if (!(e instanceof StrategyParamsError)) throw e;
        skipped.push({ values, reason: e.issues.join('; ') });
      }
      return;
    }
    const axis = typed[i]!;
    for (const v of axis.values) {
      combo[axis.name] = v;
      visit(i + 1);
    }
  };
  visit(0);
  return { axes: typed, points, skipped };
}
