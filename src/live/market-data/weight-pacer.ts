/**
 * The pipeline's own share of the REST weight (issue 21 deliverable 1: polling "paced by the weight
 * budget so that all consumers together stay inside one ledger"; spec 8.1-8.3, protocol notes 7).
 *
 * Every REST call the pipeline makes goes through the client, so the client's one ledger already
 * counts it with everyone else's. That alone would let a long poll or a big gap fill take the whole
 * pool and make orders wait; so the pipeline also meters itself against `share` of each pool, on
 * the same sliding window (a WeightLedger of its own), and waits rather than exceed it. What is
 * left, at least (1 - share) of each pool, stays free for orders, reconciliation and the treasury.
 */
import { WeightLedger, type PoolName } from '../../core/risk/weight-ledger.ts';
import type { WeightCharge } from '../../exchange/endpoints/types.ts';
import type { BudgetSnapshot } from '../../exchange/rate/weight-budget.ts';

export class WeightPacer {
  private readonly ledger: WeightLedger;
  /** The share's limit per pool, for logs and tests. */
  readonly limits: ReadonlyMap<PoolName, number>;

  constructor(pools: BudgetSnapshot['pools'], share: number) {
    if (!(share > 0 && share <= 1)) throw new RangeError(`pollWeightShare must be in (0, 1], got ${share}`);
    // At least 1 per window: a share that rounds to nothing would stop gap fills for good.
    const cut = pools.map((p) => ({ name: p.pool, limit: Math.max(1, Math.floor(p.limit * share)), windowMs: p.windowMs }));
    this.ledger = new WeightLedger({ pools: cut });
    this.limits = new Map(cut.map((p) => [p.name, p.limit]));
  }

  /**
   * Resolves once the charges are booked in the share. Callers are served first come, first served
   * (one line), so a series that asked first is not overtaken by one whose retry timer fires first.
   */
  acquire(charges: readonly WeightCharge[], now: () => number, sleep: (ms: number) => Promise<void>): Promise<void> {
    const mine = this.line.then(async () => {
      for (;;) {
        const wait = this.take(charges, now());
        if (wait === 0) return;
        await sleep(wait);
      }
    });
    // The line goes on even when a waiter gives up (the pipeline closing).
    this.line = mine.catch(() => undefined);
    return mine;
  }

  private line: Promise<void> = Promise.resolve();

  /** 0: charged, go; else the ms to wait before trying again. */
  take(charges: readonly WeightCharge[], now: number): number {
    const known = charges.filter((c) => this.limits.has(c.pool));
    const r = this.ledger.tryCharge(known, now);
    return r.ok ? 0 : r.waitMs;
  }

  used(pool: PoolName, now: number): number {
    return this.limits.has(pool) ? this.ledger.usage(pool, now) : 0;
  }
}
