/**
 * What one call costs (spec 8.1, 8.3-8.4; protocol notes 7): the endpoint table's weight rule turned
 * into a list of pool charges, one per pool.
 *
 * A bare number charges the IP pool; "Weight(UID)" rows list their pool explicitly. Under the
 * `real` profile an endpoint's `weightReal` (notes 7) replaces its spec weight. Every order-placing
 * call also counts 1 against the order-rate pool (spec 8.4).
 */
import type { EndpointDef, Pool, WeightCharge, WeightProfile, WeightSpec } from '../endpoints/types.ts';

export type WeightedDef = Pick<EndpointDef, 'weight' | 'weightReal' | 'countsAsOrder'>;

export function chargesFor(def: WeightedDef, params: Readonly<Record<string, unknown>>, profile: WeightProfile): WeightCharge[] {
  const spec = profile === 'real' && def.weightReal !== undefined ? def.weightReal : def.weight;
  const charges = normalise(spec, params);
  if (def.countsAsOrder) charges.push({ pool: 'ORDERS', weight: 1 });
  return mergeByPool(charges);
}

function normalise(spec: WeightSpec, params: Readonly<Record<string, unknown>>): WeightCharge[] {
  if (typeof spec === 'number') return [{ pool: 'IP', weight: spec }];
  const list = typeof spec === 'function' ? spec(params) : spec;
  return list.map((c) => ({ pool: c.pool, weight: c.weight }));
}

/** One charge per pool, in first-seen order, so callers and logs see a stable shape. */
function mergeByPool(charges: readonly WeightCharge[]): WeightCharge[] {
  const byPool = new Map<Pool, number>();
  for (const c of charges) {
    if (!Number.isFinite(c.weight) || c.weight < 0) throw new RangeError(`bad weight ${c.weight} for pool ${c.pool}`);
    byPool.set(c.pool, (byPool.get(c.pool) ?? 0) + c.weight);
  }
  return [...byPool].filter(([, weight]) => weight > 0).map(([pool, weight]) => ({ pool, weight }));
}
