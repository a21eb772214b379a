import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JournalError } from '../errors.ts';
import { openJournal, type Journal } from '../journal.ts';
import { redactSecrets } from './redact-secrets.ts';

let j: Journal;
beforeEach(() => {
  j = openJournal(':memory:');
});
afterEach(() => j.close());

const strategies = [
  { name: 'grid', params: { levels: 5, step: '0.002' }, symbols: ['BTCPHP'] },
  { name: 'sma', params: { fast: 5, slow: 20 }, symbols: ['ETHPHP'] },
];

describe('LiveRunStore', () => {
  it('round-trips a run: config, strategies with params, start, stop with exit reason', () => {
    expect(j.liveRuns.begin({ id: 'r1', strategies, config: { exchange: { recvWindow: 5000 } }, startedAt: 1_000 })).toEqual({ crashed: [] });
    expect(j.liveRuns.get('r1')).toMatchObject({ kind: 'live', strategy: 'grid,sma', strategies, config: { exchange: { recvWindow: 5000 } }, startedAt: 1_000, endedAt: null, exitReason: null });
    expect(j.liveRuns.end('r1', { endedAt: 2_000, reason: 'signal', detail: { signal: 'SIGTERM' }, result: { orders: 3 } })).toBe(true);
    expect(j.liveRuns.get('r1')).toMatchObject({ endedAt: 2_000, exitReason: 'signal', exitDetail: { signal: 'SIGTERM' }, result: { orders: 3 } });
    // The first end stands; an unknown run is not ended.
    expect(j.liveRuns.end('r1', { endedAt: 3_000, reason: 'stopped' })).toBe(false);
    expect(j.liveRuns.get('r1')?.exitReason).toBe('signal');
    expect(j.liveRuns.end('nope', { endedAt: 3_000, reason: 'stopped' })).toBe(false);
    // RunStore reads the same row.
    expect(j.runs.get('r1')).toMatchObject({ kind: 'live', strategy: 'grid,sma', endedAt: 2_000 });
  });

  it('never stores secrets: secret field names at any depth, signatures and listen keys in URLs, known secret values anywhere', () => {
    const config = {
      exchange: { baseUrl: 'http://127.0.0.1:9/openapi/v1/order?symbol=X&signature=abc123', wsUrl: 'ws://127.0.0.1:9/openapi/ws/LISTENKEY123', apiKeyHeader: 'X-SERVICE-APIKEY' },
      deep: { a: { b: { apiSecret: 'S3CR3T', ApiKey: 'KEY-1', webhookToken: 't0k', password: 'pw', list: [{ secretKey: 'x' }] } } },
      note: 'key is KEY-1 and secret S3CR3T',
    };
    j.liveRuns.begin({ id: 'r', strategies: [{ name: 'grid', params: { hook: 'https://x/?k=S3CR3T' } }], config, secrets: ['KEY-1', 'S3CR3T', undefined, ''], startedAt: 1 });
    const stored = j.db.prepare("SELECT config || strategies FROM runs WHERE id = 'r'").pluck().get() as string;
    for (const secret of ['S3CR3T', 'KEY-1', 't0k', 'abc123', 'LISTENKEY123', '"pw"']) expect(stored).not.toContain(secret);
    expect(j.liveRuns.get('r')?.config).toEqual({
      exchange: { baseUrl: 'http://127.0.0.1:9/openapi/v1/order?symbol=X&signature=[REDACTED]', wsUrl: 'ws://127.0.0.1:9/openapi/ws/[REDACTED]', apiKeyHeader: 'X-SERVICE-APIKEY' },
      deep: { a: { b: { apiSecret: '[REDACTED]', ApiKey: '[REDACTED]', webhookToken: '[REDACTED]', password: '[REDACTED]', list: [{ secretKey: '[REDACTED]' }] } } },
      note: 'key is [REDACTED] and secret [REDACTED]',
    });
    expect(j.liveRuns.get('r')?.strategies).toEqual([{ name: 'grid', params: { hook: 'https://x/?k=[REDACTED]' } }]);
  });

  it('redactSecrets writes a Decimal-like value as its JSON, leaves null secrets null', () => {
    expect(redactSecrets({ size: { toJSON: () => '0.1' }, apiKey: null, n: 1, ok: true })).toEqual({ size: '0.1', apiKey: null, n: 1, ok: true });
  });

  it('a run without a stop is marked crashed when the next run of its kind begins, ended at its last record', () => {
    j.liveRuns.begin({ id: 'done', strategies, config: {}, startedAt: 50 });
    j.liveRuns.end('done', { endedAt: 60, reason: 'stopped' });
    j.liveRuns.begin({ id: 'a', strategies, config: {}, startedAt: 100 });
    j.runs.addIntent({ runId: 'a', time: 150, strategy: 'grid', kind: 'place', payload: {} });
    j.requests.record({ runId: 'a', clientOrderId: 'hyaaaaaaa-1', kind: 'place', symbol: 'BTCPHP', request: {}, sentAt: 160 });
    j.liveRuns.begin({ id: 's', kind: 'sandbox', strategies, config: {}, startedAt: 170 });
    j.runs.start({ id: 'bt', kind: 'backtest', strategy: 'grid', startedAt: 180 });

    const { crashed } = j.liveRuns.begin({ id: 'b', strategies, config: {}, startedAt: 500 });
    expect(crashed.map((r) => r.id)).toEqual(['a']);
    expect(j.liveRuns.get('a')).toMatchObject({ endedAt: 160, exitReason: 'crashed', exitDetail: { detectedAt: 500, detectedBy: 'b', lastActivityAt: 160 } });
    // Other kinds, finished runs and the new run itself are left as they are.
    expect(j.liveRuns.get('s')).toMatchObject({ endedAt: null, exitReason: null });
    expect(j.runs.get('bt')?.endedAt).toBeNull();
    expect(j.liveRuns.get('done')).toMatchObject({ endedAt: 60, exitReason: 'stopped' });
    expect(j.liveRuns.get('b')).toMatchObject({ endedAt: null, exitReason: null });
    // A run that journaled nothing after its start ends at its start.
    expect(j.liveRuns.begin({ id: 'c', strategies, config: {}, startedAt: 900 }).crashed.map((r) => [r.id, r.endedAt])).toEqual([['b', 500]]);
    expect(j.liveRuns.list({ kind: 'live' }).map((r) => [r.id, r.exitReason])).toEqual([
      ['done', 'stopped'],
      ['a', 'crashed'],
      ['b', 'crashed'],
      ['c', null],
    ]);
  });

  it('refuses what is not a run: no strategies, a nameless strategy, a bad kind, a duplicate id, crashed as a declared reason', () => {
    const err = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(JournalError);
        return (e as Error).message;
      }
      throw new Error('expected a JournalError');
    };
    expect(err(() => j.liveRuns.begin({ id: 'x', strategies: [], config: {}, startedAt: 1 }))).toMatch(/run "x": strategies must list at least one/);
    expect(err(() => j.liveRuns.begin({ id: 'x', strategies: [{ name: '' }], config: {}, startedAt: 1 }))).toMatch(/strategies\[0\]\.name/);
    expect(err(() => j.liveRuns.begin({ id: 'x', kind: 'backtest' as never, strategies, config: {}, startedAt: 1 }))).toMatch(/kind must be live or sandbox/);
    expect(err(() => j.liveRuns.begin({ id: 'x', strategies, config: {}, startedAt: 1.5 }))).toMatch(/startedAt/);
    j.liveRuns.begin({ id: 'x', strategies, config: {}, startedAt: 1 });
    expect(err(() => j.liveRuns.begin({ id: 'x', strategies, config: {}, startedAt: 2 }))).toMatch(/run x: UNIQUE/);
    expect(err(() => j.liveRuns.end('x', { endedAt: 2, reason: 'crashed' as never }))).toMatch(/exit reason must be one of stopped, signal, error/);
  });
});
