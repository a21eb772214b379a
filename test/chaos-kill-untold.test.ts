/**
 * Crash recovery at the kill point `fill-journaled-untold` (live/kill-points.ts): the bot as a
 * process (`halyard run`) SIGKILLed after a fill's journal commit and before its strategy was told.
 * The restart replays the fill into positions from the journal (never applies it again) and tells
 * the strategy of it once (bot/fill-tells.ts): the checks find no fill lost for the strategies and
 * none told twice. (Before the told marks: "1 venue fill(s) no strategy was told of".)
 */
import { describe, expect, it } from 'vitest';
import { formatKills, runKills } from '../src/chaos/kill/index.ts';

describe('chaos --kill: a fill journaled, its strategy not yet told', () => {
  it('the restart tells the strategy once: consistent, nothing lost or doubled for the strategies', async () => {
    const r = await runKills({ seed: 'npm-test-untold', kills: 1, plan: [{ point: 'fill-journaled-untold', occurrence: 1 }], everyMs: 100, tradeMs: 300 });
    const table = formatKills(r);
    expect(r.restarts.map((x) => [x.point, x.killedBy, x.consistent]), table).toEqual([['fill-journaled-untold', 'point', true]]);
    const last = r.report;
    expect(last?.fills.venue).toBeGreaterThan(0);
    expect(last?.fills.journal).toBe(last?.fills.venue);
    expect(last?.fills.lostFromStrategies, table).toEqual([]);
    expect(last?.fills.doubled, table).toEqual([]);
  }, 300_000);
});
