import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yargs from 'yargs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BackfillError } from '../../../data/backfill.ts';
import { openJournal } from '../../../journal/journal.ts';
import { reportError } from '../../errors.ts';
import type { CliIo } from '../../io.ts';
import { runCli } from '../../index.ts';
import { startSandbox, type SandboxHandle } from '../../../sandbox/server.ts';
import { recordCommand, runRecord } from './record.ts';
import { exchangeInfo } from '../../../exchange/endpoints/areas/general.ts';

const M = 60_000;
const T0 = Date.UTC(2024, 2, 1);
const BARS = 2500;

/** A klines endpoint on 127.0.0.1: 1m bars T0 .. T0 + BARS, honouring startTime, endTime, limit; can fail one request. */
let server: Server;
let baseUrl: string;
let requests: URLSearchParams[] = [];
let failRequest: number | undefined;
/** Called with the request count as each klines request arrives. */
let onKlines: ((n: number) => void) | undefined;
/** What /exchangeInfo answers instead of the spec's example (status, body). */
let infoAnswer: [number, unknown] | undefined;
/** Open times the exchange has no bar for (minutes without a trade). */
let absent: (t: number) => boolean = () => false;

function kline(t: number): unknown[] {
  const i = (t - T0) / M;
  return [t, `${100 + i}.00`, `${101 + i}.00`, `${99 + i}.00`, `${100 + i}.50`, '1.25', t + M - 1, '125.5', 9, '0.5', '50.1', '0'];
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/openapi/v1/time') return send(200, { serverTime: Date.now() });
    if (url.pathname === '/openapi/v1/exchangeInfo') return infoAnswer ? send(...infoAnswer) : send(200, exchangeInfo.example.response);
    if (url.pathname !== '/openapi/quote/v1/klines') return send(404, { code: -1, msg: 'not found' });
    requests.push(url.searchParams);
    onKlines?.(requests.length);
    if (failRequest !== undefined && requests.length === failRequest) return send(400, { code: -1121, msg: 'Invalid symbol.' });
    const start = Number(url.searchParams.get('startTime') ?? T0);
    const end = Number(url.searchParams.get('endTime') ?? T0 + BARS * M);
    const limit = Number(url.searchParams.get('limit') ?? 500);
    const out: unknown[] = [];
    for (let t = Math.max(T0, T0 + Math.ceil((start - T0) / M) * M); t <= end && t < T0 + BARS * M && out.length < limit; t += M) if (!absent(t)) out.push(kline(t));
    send(200, out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-record-'));
  requests = [];
  failRequest = undefined;
  infoAnswer = undefined;
  onKlines = undefined;
  absent = () => false;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const cli: CliIo = { env: {}, out: (t) => out.push(t), err: (t) => err.push(t) };
  return { cli, out, err };
}

const now = () => T0 + 10 * BARS * M;

describe('halyard record', () => {
  it('backfills through the typed client in pages of 1000, printing plain progress lines without a TTY', async () => {
    const journal = join(dir, 'j.db');
    const a = io();
    const r = await runRecord(a.cli, { symbol: 'btcphp', interval: '1m', from: '2024-03-01', to: '2024-03-02T12:00', journal, baseUrl }, { tty: false, linesEvery: 1, now });
    expect(r).toMatchObject({ saved: 2160, stop: 'range-end' });
    expect(requests.map((q) => [q.get('symbol'), q.get('interval'), q.get('limit'), Number(q.get('startTime')) - T0])).toEqual([
      ['BTCPHP', '1m', '1000', 0],
      ['BTCPHP', '1m', '1000', 999 * M + 1],
      ['BTCPHP', '1m', '1000', 1999 * M + 1],
    ]);
    expect(requests[0]!.get('endTime')).toBe(String(Date.UTC(2024, 2, 2, 12) - 1));
    const text = a.out.join('\n');
    expect(text).toMatch(/Recording BTCPHP 1m 2024-03-01T00:00Z \.\. 2024-03-02T12:00Z into/);
    expect(text).toMatch(/ {2}1000\/2160 bars \(46%\), 1000 saved, up to 2024-03-01T16:39Z/);
    expect(text).toMatch(/Saved 2160 bars in 3 request\(s\), 2024-03-01T00:00Z \.\. 2024-03-02T11:59Z/);
    const j = openJournal(journal);
    expect(j.klines.klineRange('BTCPHP', '1m')).toEqual({ first: T0, last: T0 + 2159 * M, count: 2160 });
    expect(j.klines.klines('BTCPHP', '1m', T0, T0 + 1)[0]).toMatchObject({ open: '100.00', close: '100.50', quoteVolume: '125.5', trades: 9, source: 'rest' });
    // The exchange's rules at recording time, for backtests of these bars.
    expect((j.exchangeInfo.latest()?.body as { symbols: { symbol: string }[] }).symbols[0]!.symbol).toBe('BTCPHP');
    j.close();
    expect(a.err.join('\n')).toBe('');
  });

  it('stops cleanly on an exchange error with what was saved, then resumes after the last stored bar', async () => {
    const journal = join(dir, 'j.db');
    failRequest = 2;
    const a = io();
    const err = await runRecord(a.cli, { symbol: 'BTCPHP', interval: '1m', from: String(T0), journal, baseUrl }, { tty: false, now }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackfillError);
    expect(a.err.join('\n')).toMatch(/record stopped after 1 request\(s\); saved 1000 bars this run, 2024-03-01T00:00Z \.\. 2024-03-01T16:39Z\n {2}run the same command again/);
    expect(reportError(a.cli, err)).toBe(1);
    expect(a.err.at(-1)).toMatch(/error: fetching klines from 2024-03-01T16:39:00.001Z failed: .*Invalid symbol.*; saved 1000 bar\(s\) before stopping/);

    failRequest = undefined;
    requests = [];
    const b = io();
    const r = await runRecord(b.cli, { symbol: 'BTCPHP', interval: '1m', from: String(T0), journal, baseUrl }, { tty: false, now });
    expect(b.out[0]).toMatch(/1000 bars already stored, resuming after 2024-03-01T16:39Z/);
    expect(Number(requests[0]!.get('startTime'))).toBe(T0 + 999 * M + 1);
    // --to defaults to now; the exchange runs out of bars at BARS.
    expect(r).toMatchObject({ saved: BARS - 1000, stop: 'no-more-data' });
    const j = openJournal(journal);
    expect(j.klines.klineRange('BTCPHP', '1m')).toEqual({ first: T0, last: T0 + (BARS - 1) * M, count: BARS });
    j.close();
  });

  it('stops after the page in flight when the process is asked to stop (SIGINT: io.signal), and a second run resumes without a gap or a repeat', async () => {
    const journal = join(dir, 'j.db');
    const stop = new AbortController();
    onKlines = (n) => {
      if (n === 1) stop.abort(new Error('received SIGINT'));
    };
    const a = io();
    const err = await runRecord({ ...a.cli, signal: stop.signal }, { symbol: 'BTCPHP', interval: '1m', from: String(T0), journal, baseUrl }, { tty: false, now }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackfillError);
    expect((err as BackfillError).message).toMatch(/^backfill aborted; saved 1000 bar\(s\) before stopping$/);
    expect(requests).toHaveLength(1);
    expect(a.err.join('\n')).toMatch(/record stopped after 1 request\(s\); saved 1000 bars this run.*\n {2}run the same command again/);

    onKlines = undefined;
    requests = [];
    const r = await runRecord(io().cli, { symbol: 'BTCPHP', interval: '1m', from: String(T0), journal, baseUrl }, { tty: false, now });
    expect(Number(requests[0]!.get('startTime'))).toBe(T0 + 999 * M + 1);
    expect(r).toMatchObject({ saved: BARS - 1000 });
    const j = openJournal(journal);
    expect(j.klines.klineRange('BTCPHP', '1m')).toEqual({ first: T0, last: T0 + (BARS - 1) * M, count: BARS });
    j.close();
  });

  it('refuses bad arguments before touching anything', async () => {
    const journal = join(dir, 'j.db');
    const base = { symbol: 'BTCPHP', interval: '1m', journal, baseUrl };
    await expect(runRecord(io().cli, { ...base, from: 'yesterday' })).rejects.toThrow(/--from 'yesterday' is not a date/);
    await expect(runRecord(io().cli, { ...base, from: '2024-03-02', to: '2024-03-01' })).rejects.toThrow(/--to 2024-03-01T00:00Z is not after --from/);
    await expect(runRecord(io().cli, { ...base, interval: '7m', from: '2024-03-01' })).rejects.toThrow(/--interval '7m'/);
    await expect(runRecord(io().cli, { ...base, symbol: 'BTC/PHP', from: '2024-03-01' })).rejects.toThrow(/--symbol/);
    expect(requests).toHaveLength(0);
  });

  it.each([
    ['-1025 naming symbol (spec 7.3)', [400, { code: -1025, msg: "parameter 'symbol' is not valid: no such symbol 'NOPE'" }], " (it answered: parameter 'symbol' is not valid: no such symbol 'NOPE')"],
    ['-1121 (legacy)', [400, { code: -1121, msg: 'Invalid symbol.' }], ' (it answered: Invalid symbol.)'],
    ['an answer that does not list it', [200, { ...(exchangeInfo.example.response as object), symbols: [] }], ''],
  ] as const)('a symbol the exchange does not list is bad input (%s): exit 2, no journal, no klines asked, no warning', async (_name, answer, said) => {
    infoAnswer = answer as [number, unknown];
    const journal = join(dir, 'j.db');
    const a = io();
    const err = await runRecord(a.cli, { symbol: 'NOPE', interval: '1m', from: '2024-03-01', journal, baseUrl }, { tty: false, now }).catch((e: unknown) => e);
    expect(reportError(a.cli, err)).toBe(2);
    expect(a.err).toEqual([`error: --symbol NOPE: the exchange lists no symbol NOPE${said}; \`halyard exchange-info\` lists the ones it has`]);
    expect(requests).toHaveLength(0);
    expect(existsSync(journal)).toBe(false);
  });

  it.each([false, true])('against the sandbox (legacyInvalidSymbolCode %s): an unknown symbol exits 2, a known one records', async (legacy) => {
    const sandbox = await startSandbox({ config: { variants: { legacyInvalidSymbolCode: legacy } } });
    try {
      const journal = join(dir, 'j.db');
      const a = io();
      const code = await runCli(['--base-url', sandbox.baseUrl, 'record', '--symbol', 'NOPE', '--interval', '1m', '--from', '2024-03-01', '--journal', journal], a.cli);
      expect(code).toBe(2);
      expect(a.err.join('\n')).toMatch(/^error: --symbol NOPE: the exchange lists no symbol NOPE \(it answered: .+\); `halyard exchange-info` lists the ones it has$/);
      expect(existsSync(journal)).toBe(false);
      const b = io();
      expect(await runCli(['--base-url', sandbox.baseUrl, 'record', '--symbol', 'BTCPHP', '--interval', '1h', '--from', '2024-03-01', '--journal', journal], b.cli)).toBe(0);
      expect(b.err).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });

  it('rules that cannot be fetched are a warning saying what backtests will use, and the record goes on', async () => {
    const journal = join(dir, 'j.db');
    // -1025 about another parameter is not an unknown symbol.
    infoAnswer = [400, { code: -1025, msg: "parameter 'recvWindow' is not valid" }];
    const a = io();
    await runRecord(a.cli, { symbol: 'XYZPHP', interval: '1m', from: String(T0), to: String(T0 + 10 * M), journal, baseUrl }, { tty: false, now });
    expect(a.err).toHaveLength(1);
    expect(a.err[0]).toMatch(/^warning: the exchange's rules for XYZPHP were not saved \(.*recvWindow.*\); the journal and the sandbox config have no rules for XYZPHP: a backtest will need them from a file \(--exchange-info RULES\.json\), or run record again$/);
    expect(a.out.join('\n')).toMatch(/Saved 10 bars/);

    infoAnswer = [400, { code: -1100, msg: "illegal characters in parameter 'x'" }];
    const b = io();
    await runRecord(b.cli, { symbol: 'BTCPHP', interval: '1m', from: String(T0), to: String(T0 + 20 * M), journal, baseUrl }, { tty: false, now });
    expect(b.err.join('\n')).toMatch(/; backtests will use the sandbox config's rules for BTCPHP$/);

    // With a snapshot listing the symbol in the journal, that one.
    infoAnswer = undefined;
    await runRecord(io().cli, { symbol: 'BTCPHP', interval: '1m', from: String(T0), to: String(T0 + 30 * M), journal, baseUrl }, { tty: false, now });
    infoAnswer = [400, { code: -1100, msg: "illegal characters in parameter 'x'" }];
    const c = io();
    await runRecord(c.cli, { symbol: 'BTCPHP', interval: '1m', from: String(T0), to: String(T0 + 40 * M), journal, baseUrl }, { tty: false, now });
    expect(c.err.join('\n')).toMatch(/; backtests will use the rules of the journal's exchangeInfo snapshot of \d{4}-/);
  });

  it('is a yargs command: required options are enforced by the parser', async () => {
    const a = io();
    let failure: unknown;
    await yargs(['record', '--symbol', 'BTCPHP', '--interval', '1m', '--from', '2024-03-01', '--to', '2024-03-01T01:00', '--journal', join(dir, 'y.db'), '--base-url', baseUrl])
      .option('base-url', { type: 'string' })
      .command(recordCommand(a.cli, { tty: false, now }))
      .exitProcess(false)
      .strict()
      .fail((msg, e) => {
        failure = e ?? msg;
      })
      .parseAsync();
    expect(failure).toBeUndefined();
    expect(a.out.join('\n')).toMatch(/Saved 60 bars in 1 request/);
    const missing = async () =>
      yargs(['record', '--symbol', 'BTCPHP'])
        .command(recordCommand(a.cli))
        .exitProcess(false)
        .fail((msg, e) => {
          throw e ?? new Error(msg);
        })
        .parseAsync();
    await expect(missing()).rejects.toThrow(/Missing required arguments?: interval, from/);
  });
});

describe('halyard record: holes between stored bars', () => {
  const at = (m: number) => T0 + m * M;
  const span = (q: URLSearchParams) => [(Number(q.get('startTime')) - T0) / M, (Number(q.get('endTime')) + 1 - T0) / M];

  it('fetches the bars missing between two recorded stretches, and never asks again about a hole the exchange answered empty', async () => {
    const journal = join(dir, 'j.db');
    // Minutes 100-109 and 500 had no trade: the exchange has no bar there.
    absent = (t) => (t >= at(100) && t < at(110)) || t === at(500);
    const rec = async (from: number, to: number) => {
      const a = io();
      requests = [];
      const r = await runRecord(a.cli, { symbol: 'BTCPHP', interval: '1m', from: String(at(from)), to: String(at(to)), journal, baseUrl }, { tty: false, now });
      expect(a.err).toEqual([]);
      return { r, out: a.out.join('\n'), asked: requests.map(span) };
    };
    const held = () => {
      const j = openJournal(journal);
      try {
        return j.klines.klineRange('BTCPHP', '1m');
      } finally {
        j.close();
      }
    };
    expect((await rec(0, 300)).r.saved).toBe(290);
    expect((await rec(600, 900)).r.saved).toBe(300);

    // [300, 600) was never asked for: fetched, in one request; minutes 100-109 were answered already.
    const gap = await rec(0, 900);
    expect(gap.out).toMatch(/590 bars already stored, asking for the bars of 1 hole\(s\) between stored ones, then resuming after 2024-03-01T14:59Z/);
    expect(gap.asked).toEqual([[299 + 1 / M, 600]]);
    expect(gap.r).toMatchObject({ saved: 299, pages: 1, stop: 'range-end' });
    expect(held()).toEqual({ first: T0, last: at(899), count: 889 });

    // Every hole left is one the exchange answered: nothing to ask.
    const again = await rec(0, 900);
    expect(again.asked).toEqual([]);
    expect(again.r).toMatchObject({ saved: 0, pages: 0 });

    // A journal recorded before the checked ranges existed: its holes are asked about once (two requests for both), then never.
    const j = openJournal(journal);
    j.db.prepare('DELETE FROM kline_checked').run();
    j.close();
    const legacy = await rec(0, 900);
    expect(legacy.out).toMatch(/asking for the bars of 2 hole\(s\) between stored ones/);
    expect(legacy.asked).toEqual([
      [99 + 1 / M, 501],
      [499 + 1 / M, 501],
    ]);
    expect(legacy.r).toMatchObject({ saved: 0 });
    expect((await rec(0, 900)).asked).toEqual([]);

    // Bars deleted from the journal are missing again: fetched again.
    const k = openJournal(journal);
    k.klines.deleteKlines('BTCPHP', '1m', at(200), at(210));
    k.close();
    const lost = await rec(0, 900);
    expect(lost.r.saved).toBe(10);
    expect(held()).toEqual({ first: T0, last: at(899), count: 889 });
    expect((await rec(0, 900)).asked).toEqual([]);
  });

  it('against the sandbox\'s market (minutes without a trade have no kline): two stretches joined hold what one record holds, and a second run asks nothing inside them', { timeout: 60_000 }, async () => {
    const MIN = 60_000;
    const sandbox: SandboxHandle = await startSandbox({ config: { clock: { speed: 1200 }, market: { enabled: true } } });
    try {
      const from = Math.ceil(sandbox.clock.now() / MIN) * MIN;
      const to = from + 60 * MIN;
      // A sandbox minute is 50 ms: an hour of market, then a minute for its last bar to close.
      while (sandbox.clock.now() < to + MIN) await new Promise((r) => setTimeout(r, 50));
      const sandboxNow = () => sandbox.clock.now();
      const rec = async (file: string, a: number, b: number) => {
        const out = io();
        const r = await runRecord(out.cli, { symbol: 'BTCPHP', interval: '1m', from: String(a), to: String(b), journal: join(dir, file), baseUrl: sandbox.baseUrl }, { tty: false, now: sandboxNow });
        expect(out.err).toEqual([]);
        return r;
      };
      const times = (file: string) => {
        const j = openJournal(join(dir, file));
        try {
          return j.klines.klines('BTCPHP', '1m', from, to).map((k) => k.openTime);
        } finally {
          j.close();
        }
      };
      await rec('one.db', from, to);
      const whole = times('one.db');
      expect(whole.length).toBeGreaterThan(0);

      await rec('two.db', from, from + 20 * MIN);
      await rec('two.db', from + 40 * MIN, to);
      const joined = await rec('two.db', from, to);
      expect(times('two.db')).toEqual(whole);
      expect(joined.saved).toBe(whole.filter((t) => t >= from + 20 * MIN && t < from + 40 * MIN).length);

      // Only the bars after the last stored one are asked for again (bars may yet come there).
      const last = whole[whole.length - 1]!;
      const again = await rec('two.db', from, to);
      expect(again).toMatchObject({ saved: 0, pages: last + MIN < to ? 1 : 0 });
    } finally {
      await sandbox.close();
    }
  });
});
