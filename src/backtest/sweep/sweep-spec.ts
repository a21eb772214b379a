/**
 * Sweep specs from the command line: `fast=5:20:5` (start:stop:step, stop included when the steps
 * land on it) or `mode=a,b,c` (a list). Several specs may share one argument
 * (`--sweep "fast=5:20:5 slow=20:60:10"`). Range values are computed in Decimal, so
 * `x=0.1:0.3:0.1` is 0.1, 0.2, 0.3 and not 0.30000000000000004. Values stay text here; the grid
 * gives them the type of the strategy's parameter (sweep-grid.ts). Every error names the spec.
 */
import { D } from '../../core/money/decimal.ts';
import { HalyardError } from '../../exchange/errors/errors.ts';

export class SweepSpecError extends HalyardError {
  constructor(
    readonly spec: string,
    message: string,
  ) {
    super('SWEEP_SPEC', `bad --sweep spec '${spec}': ${message}`);
  }
}

export interface SweepAxis {
  /** Parameter name. */
  name: string;
  /** Values as text, in order, without duplicates. */
  values: string[];
  /** The spec as given, for messages. */
  spec: string;
}

/** Most values one range may produce: a typo such as 1:100000:1 should fail, not run for a week. */
export const MAX_AXIS_VALUES = 10_000;

const NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;
/** Plain decimals only, as --param takes them (cli-input.ts): not 1e1, 0x10. */
const NUMBER = /^[+-]?(\d+(\.\d+)?|\.\d+)$/;

function parseRange(spec: string, body: string): string[] {
  const parts = body.split(':');
  if (parts.length !== 3 || parts.some((p) => p.trim() === '')) throw new SweepSpecError(spec, 'a range is start:stop:step, e.g. fast=5:20:5');
  const bad = parts.find((p) => !NUMBER.test(p.trim()));
  if (bad !== undefined) throw new SweepSpecError(spec, `'${bad}' is not a plain decimal number`);
  const [start, stop, step] = parts.map((p) => new D(p.trim())) as [InstanceType<typeof D>, InstanceType<typeof D>, InstanceType<typeof D>];
  if (!step.gt(0)) throw new SweepSpecError(spec, `step must be > 0, got ${step.toString()}`);
  if (stop.lt(start)) throw new SweepSpecError(spec, `stop ${stop.toString()} is below start ${start.toString()}`);
  const count = stop.minus(start).div(step).floor().toNumber() + 1;
  if (count > MAX_AXIS_VALUES) throw new SweepSpecError(spec, `${count} values is more than ${MAX_AXIS_VALUES}; use a larger step`);
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(start.plus(step.times(i)).toString());
  return out;
}

function parseList(spec: string, body: string): string[] {
  const values = body.split(',').map((v) => v.trim());
  if (values.some((v) => v === '')) throw new SweepSpecError(spec, 'a list has an empty item; write a,b,c');
  return values;
}

/** One `name=values` spec. */
export function parseSweepSpec(spec: string): SweepAxis {
  const text = spec.trim();
  const eq = text.indexOf('=');
  if (eq <= 0) throw new SweepSpecError(spec, 'expected name=start:stop:step or name=a,b,c');
  const name = text.slice(0, eq).trim();
  const body = text.slice(eq + 1).trim();
  if (!NAME.test(name)) throw new SweepSpecError(spec, `'${name}' is not a parameter name`);
  if (body === '') throw new SweepSpecError(spec, 'no values after =');
  const values = body.includes(':') ? parseRange(spec, body) : parseList(spec, body);
  return { name, values: [...new Set(values)], spec: text };
}

/**
 * All specs; each argument may hold several separated by spaces. A parameter given twice is an
 * error (which one would win is a guess).
 */
export function parseSweepSpecs(args: readonly string[]): SweepAxis[] {
  const specs = args.flatMap((a) => a.split(/\s+/)).filter((s) => s !== '');
  const axes = specs.map(parseSweepSpec);
  const seen = new Set<string>();
  for (const a of axes) {
    if (seen.has(a.name)) throw new SweepSpecError(a.spec, `parameter '${a.name}' is swept twice`);
    seen.add(a.name);
  }
  return axes;
}
