import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal, type Journal } from '../journal.ts';

let j: Journal;
beforeEach(() => {
  j = openJournal(':memory:');
  j.liveRuns.begin({ id: 'r', strategies: [{ name: 'grid' }], config: {}, startedAt: 0 });
});
afterEach(() => j.close());

describe('StreamHealthStore', () => {
  it('round-trips changes per stream in time order; latest is the stream\'s last', () => {
    const a = j.streamHealth.record({ runId: 'r', time: 10, stream: 'user', to: 'CONNECTING' });
    j.streamHealth.record({ runId: 'r', time: 20, stream: 'user', from: 'CONNECTING', to: 'LIVE' });
    j.streamHealth.record({ runId: 'r', time: 25, stream: 'btcphp@depth', from: null, to: 'LIVE' });
    j.streamHealth.record({ runId: 'r', time: 90, stream: 'user', from: 'LIVE', to: 'STALE', reason: 'no message or pong for 60000 ms' });
    expect(j.streamHealth.byId(a)).toEqual({ id: a, runId: 'r', time: 10, stream: 'user', from: null, to: 'CONNECTING', reason: null });
    expect(j.streamHealth.byRun('r', 'user').map((c) => [c.time, c.from, c.to, c.reason])).toEqual([
      [10, null, 'CONNECTING', null],
      [20, 'CONNECTING', 'LIVE', null],
      [90, 'LIVE', 'STALE', 'no message or pong for 60000 ms'],
    ]);
    expect(j.streamHealth.byRun('r').map((c) => c.stream)).toEqual(['user', 'user', 'btcphp@depth', 'user']);
    expect(j.streamHealth.latest('r', 'user')?.to).toBe('STALE');
    expect(j.streamHealth.latest('r', 'none')).toBeUndefined();
  });

  it('refuses a change without a stream or a state, or of an unknown run', () => {
    expect(() => j.streamHealth.record({ runId: 'r', time: 1, stream: '', to: 'LIVE' })).toThrow(/stream must be a non-empty name/);
    expect(() => j.streamHealth.record({ runId: 'r', time: 1, stream: 'user', to: '' })).toThrow(/to must be a non-empty state/);
    expect(() => j.streamHealth.record({ runId: 'x', time: 1, stream: 'user', to: 'LIVE' })).toThrow(/health of stream user at 1: FOREIGN KEY/);
  });
});
