import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import { parseTreasuryPolicy } from '../policy/parse.ts';
import { Rebalancer, type RebalancerOptions } from './rebalancer.ts';

function rig(over: Partial<RebalancerOptions> = {}) {
  const scheduler = new VirtualTimeScheduler();
  const calls: string[] = [];
  // Any read of the venue is recorded and fails: a paused tick must read nothing.
  const client = new Proxy({}, { get: (_t, area) => new Proxy({}, { get: (_u, name) => () => (calls.push(`${String(area)}.${String(name)}`), Promise.reject(new Error('no venue here'))) }) }) as unknown as ExchangeClient;
  const logs: string[] = [];
  const r = new Rebalancer({
    policy: parseTreasuryPolicy({ accounts: { master: { assets: { PHP: { min: '1000' } } } }, schedule: { everyMs: 60_000, firstAfterMs: 10_000 } }),
    client,
    journal: { db: undefined as never, file: ':memory:' },
    runId: 'run-1',
    scheduler,
    now: () => scheduler.now(),
    stream: () => ({ state: 'STALE', reason: 'no frame for 35 s' }),
    busySymbols: () => [],
    log: (_l, msg) => void logs.push(msg),
    ...over,
  });
  return { r, scheduler, calls, logs };
}

describe('Rebalancer', () => {
  it('pauses while the user stream is not LIVE: nothing read, nothing sent, the reason in the status', async () => {
    const { r, scheduler, calls, logs } = rig();
    r.start();
    expect(r.status()).toMatchObject({ state: 'waiting', nextRunAt: 10_000 });
    scheduler.maxFrames = 10_000;
    scheduler.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.status()).toMatchObject({ state: 'paused', reason: 'the user stream is STALE (no frame for 35 s)', lastRunAt: 10_000, nextRunAt: 70_000, movesDone: 0 });
    expect(calls).toEqual([]);
    expect(logs).toEqual(['treasury: rebalance paused: the user stream is STALE (no frame for 35 s)']);
    await r.stop();
    expect(r.status().nextRunAt).toBeNull();
  });

  it('is off when the schedule is disabled', () => {
    const { r } = rig({ policy: parseTreasuryPolicy({ schedule: { enabled: false } }) });
    r.start();
    expect(r.status().state).toBe('off');
  });
});
