import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../time/virtual-clock.ts';
import { median, ServerClock } from './server-clock.ts';

/** A fake GET /time: the request leg and the response leg each take virtual time. */
function fakeServer(clock: VirtualClock, legs: readonly (readonly [number, number])[]) {
  const state = { offset: 5_000, calls: 0, failNext: 0 };
  const fetchServerTime = async (): Promise<number> => {
    const [up, down] = legs[state.calls++ % legs.length]!;
    await clock.advance(up);
    if (state.failNext > 0) {
      state.failNext--;
      throw new Error('connection reset');
    }
    const s = clock.now() + state.offset;
    await clock.advance(down);
    return s;
  };
  return { state, fetchServerTime };
}

// offsets measured: 5000 + (up - down) / 2 => 5000, 5045, 5000, 4905, 5000; round trips 20, 110, 20, 210, 40
const LEGS = [[10, 10], [100, 10], [10, 10], [10, 200], [20, 20]] as const;

describe('ServerClock', () => {
  it('takes the median offset, which shrugs off one-sided delays', async () => {
    const clock = new VirtualClock(1_000_000);
    const server = fakeServer(clock, LEGS);
    const sc = new ServerClock({ clock, fetchServerTime: server.fetchServerTime });
    expect(sc.now()).toBe(clock.now()); // no estimate yet: local time
    const est = await sc.sync();
    expect(server.state.calls).toBe(5);
    expect(est).toMatchObject({ offsetMs: 5_000, roundTripMs: 40, samples: 5, syncedAt: 1_000_400 });
    expect(sc.now()).toBe(clock.now() + 5_000);
    await clock.advance(1_234);
    expect(sc.now()).toBe(clock.now() + 5_000);
  });

  it('resync replaces the estimate (after -1021)', async () => {
    const clock = new VirtualClock(0);
    const server = fakeServer(clock, LEGS);
    const sc = new ServerClock({ clock, fetchServerTime: server.fetchServerTime, samples: 3 });
    await sc.ensureSynced();
    expect(sc.offsetMs).toBe(5_000);
    server.state.offset = -3_000;
    await sc.ensureSynced(); // still fresh: no new samples
    expect(server.state.calls).toBe(3);
    await sc.resync();
    expect(server.state.calls).toBe(6);
    // samples 4-6 use legs [10,200], [20,20], [10,10] => -3095, -3000, -3000
    expect(sc.offsetMs).toBe(-3_000);
    expect(sc.now()).toBe(clock.now() - 3_000);
  });

  it('shares one sync between concurrent callers', async () => {
    const clock = new VirtualClock(0);
    const server = fakeServer(clock, [[5, 5]]);
    const sc = new ServerClock({ clock, fetchServerTime: server.fetchServerTime });
    const [a, b, c, d] = await Promise.all([sc.ensureSynced(), sc.ensureSynced(), sc.ensureSynced(), sc.resync()]);
    expect(server.state.calls).toBe(5);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(c).toBe(d);
    await sc.ensureSynced();
    expect(server.state.calls).toBe(5);
  });

  it('re-syncs lazily once the estimate is older than maxAgeMs', async () => {
    const clock = new VirtualClock(0);
    const server = fakeServer(clock, [[5, 5]]);
    const sc = new ServerClock({ clock, fetchServerTime: server.fetchServerTime, samples: 1, maxAgeMs: 60_000 });
    await sc.ensureSynced();
    await clock.advance(59_000);
    await sc.ensureSynced();
    expect(server.state.calls).toBe(1);
    await clock.advance(1_000);
    await sc.ensureSynced();
    expect(server.state.calls).toBe(2);
  });

  it('skips failed samples, and keeps the old estimate when all fail', async () => {
    const clock = new VirtualClock(0);
    const server = fakeServer(clock, [[5, 5]]);
    const sc = new ServerClock({ clock, fetchServerTime: server.fetchServerTime, samples: 3 });
    server.state.failNext = 2;
    expect(await sc.sync()).toMatchObject({ offsetMs: 5_000, samples: 1 });
    server.state.failNext = 3;
    server.state.offset = 9_999;
    await expect(sc.resync()).rejects.toThrow('connection reset');
    expect(sc.offsetMs).toBe(5_000);
    server.state.failNext = 0;
    expect((await sc.resync()).offsetMs).toBe(9_999); // a failed sync does not stick
  });

  it('times a sample over the exchange the fetch reports, not over a wait before it', async () => {
    const clock = new VirtualClock(0);
    const sc = new ServerClock({
      clock,
      samples: 1,
      fetchServerTime: async () => {
        await clock.advance(8_000); // queued for the weight budget
        const sentAt = clock.now();
        await clock.advance(10);
        const serverTime = clock.now() + 250;
        await clock.advance(10);
        return { serverTime, sentAt, receivedAt: clock.now() };
      },
    });
    expect(await sc.sync()).toMatchObject({ offsetMs: 250, roundTripMs: 20 });
  });

  it('median of odd and even lists', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
