/**
 * Crash recovery, short form (issue 22 deliverable 3 and acceptance: "`npm test` runs a short
 * form (... two kills)"): the bot as a process (`halyard run`) SIGKILLed at two different points of
 * its order flow (live/kill-points.ts), the market moved while it is dead, restarted on the same
 * journal: each restart consistent by the checks of deliverable 2. And the proof they can fail: a
 * journal wiped between the kill and the restart is an inconsistent verdict.
 */
import { describe, expect, it } from 'vitest';
import { formatKills, runKills } from '../src/chaos/kill/index.ts';

describe('chaos --kill: crash recovery', () => {
  it('two kills at different points (answer not yet journaled; a fill half written): both restarts consistent', async () => {
    const r = await runKills({
      seed: 'npm-test',
      kills: 2,
      plan: [
        { point: 'answered-unjournaled', occurrence: 2 },
        { point: 'fill-half-written', occurrence: 1 },
      ],
      everyMs: 100,
      tradeMs: 300,
    });
    const table = formatKills(r);
    expect(r.restarts.map((x) => [x.point, x.killedBy, x.consistent]), table).toEqual([
      ['answered-unjournaled', 'point', true],
      ['fill-half-written', 'point', true],
    ]);
    expect(table).toContain('2 of 2 restarts consistent');
    // The checks had something to check: orders, fills (the one half written among them), balances.
    const last = r.report;
    expect(last?.orders.intents).toBeGreaterThan(2);
    expect(last?.fills.venue).toBeGreaterThan(0);
    expect(last?.fills.journal).toBe(last?.fills.venue);
    expect(last?.balances.equal).toBe(true);
  }, 300_000);

  it('the checks can fail: a journal wiped between the kill and the restart is inconsistent', async () => {
    const r = await runKills({ seed: 'npm-test-broken', kills: 1, plan: [{ point: 'fill-half-written', occurrence: 1 }], everyMs: 100, tradeMs: 300, breakRecovery: 'wipe-journal' });
    expect(r.restarts.map((x) => [x.killedBy, x.consistent])).toEqual([['point', false]]);
    expect(r.restarts[0]?.failures.join('\n')).toMatch(/never journaled|missing from the journal/);
    expect(formatKills(r)).toContain('0 of 1 restarts consistent');
  }, 240_000);
});
