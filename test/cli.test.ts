/** The `halyard` CLI of the client issue: api, time, exchange-info, --help, and bad input. */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/index.ts';
import { exchangeInfo } from '../src/exchange/endpoints/areas/general.ts';
import { startCaptureServer, type CaptureServer } from './support/capture-server.ts';

let server: CaptureServer;

beforeAll(async () => {
  server = await startCaptureServer((req) => {
    if (req.path === '/openapi/v1/time') return { body: { serverTime: Date.now() } };
    if (req.path === '/openapi/v1/exchangeInfo' && req.rawQuery === 'symbol=NOPE') return { status: 400, body: { code: -1025, msg: "parameter 'symbol' is not valid: no such symbol 'NOPE'" } };
    if (req.path === '/openapi/v1/exchangeInfo') return { body: exchangeInfo.example.response };
    if (req.path === '/openapi/v1/order') return { body: { symbol: 'BTCPHP', orderId: 1, clientOrderId: 'x', transactTime: 1 } };
    if (req.path === '/openapi/quote/v1/trades')
      return { body: '[{"id":1375445991893797391,"price":"1","qty":"2","quoteQty":"2","time":1,"isBuyerMaker":true,"isBestMatch":true}]' };
    return { body: {} };
  });
});
afterAll(() => server.close());

async function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { env, out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('halyard CLI', () => {
  it('--help lists the commands; api --help lists every endpoint by area', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/halyard api/);
    const api = await cli(['api', '--help']);
    for (const area of ['general:', 'market:', 'spot:', 'wallet:', 'fiat:', 'merchant:', 'legacyV4:']) expect(api.out).toContain(area);
    expect(api.out).toContain('spot.newOrder');
  });

  it('api <endpoint> calls it and prints the JSON, ids exact', async () => {
    const r = await cli(['--base-url', server.baseUrl, 'api', 'market.trades', 'symbol=BTCPHP', 'limit=1']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)[0].id).toBe('1375445991893797391');
    const sent = server.requests.at(-1)!;
    expect(sent.rawQuery).toBe('symbol=BTCPHP&limit=1');
  });

  it('an option that takes one value, given twice, is refused by name; repeatable ones are not', async () => {
    const twice = await cli(['backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--symbol', 'ETHPHP', '--interval', '1m']);
    expect(twice.code).toBe(2);
    expect(twice.err).toMatch(/--symbol was given 2 times \(BTCPHP, ETHPHP\): give it once/);
    const base = await cli(['--base-url', server.baseUrl, '--base-url', server.baseUrl, 'time']);
    expect(base.code).toBe(2);
    expect(base.err).toMatch(/--base-url was given 2 times/);
    const params = await cli(['backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--interval', '1m', '--param', 'fast=5', '--param', 'slow=20', '--journal', join(tmpdir(), 'halyard-no-such-journal.db')]);
    expect(params.err).not.toMatch(/given 2 times/);
  });

  it('signs with keys from the environment', async () => {
    const env = { HALYARD_API_KEY: 'key', HALYARD_API_SECRET: 'secret' };
    const r = await cli(['--base-url', server.baseUrl, 'api', 'spot.newOrder', 'symbol=BTCPHP', 'side=BUY', 'type=LIMIT', 'timeInForce=GTC', 'quantity=1', 'price=10'], env);
    expect(r.code).toBe(0);
    const sent = server.requests.filter((q) => q.path === '/openapi/v1/order').at(-1)!;
    expect(sent.headers['x-service-apikey']).toBe('key');
    expect(sent.rawQuery).toMatch(/&signature=[0-9a-f]{64}$/);
  });

  it('describe shows parameters and rules without calling anything', async () => {
    const before = server.requests.length;
    const r = await cli(['api', 'wallet.withdrawHistory', '--describe']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/withdrawOrderId/);
    expect(r.out).toMatch(/under 7 days when withdrawOrderId is sent/);
    expect(server.requests.length).toBe(before);
  });

  it('time and exchange-info work against the server', async () => {
    const t = await cli(['--base-url', server.baseUrl, 'time']);
    expect(t.code).toBe(0);
    expect(JSON.parse(t.out)).toHaveProperty('offsetMs');
    const x = await cli(['--base-url', server.baseUrl, 'exchange-info', '--symbol', 'btcphp']);
    expect(x.code).toBe(0);
    expect(JSON.parse(x.out).symbols[0].symbol).toBe('BTCPHP');
    expect(server.requests.at(-1)!.rawQuery).toBe('symbol=BTCPHP');
    const none = await cli(['--base-url', server.baseUrl, 'exchange-info', '--symbol', 'nope']);
    expect(none.code).toBe(2);
    expect(none.err).toBe("error: --symbol NOPE: the exchange lists no symbol NOPE (it answered: parameter 'symbol' is not valid: no such symbol 'NOPE'); `halyard exchange-info` lists the ones it has");
  });

  it.each([
    [['api', 'nope.nothing'], /unknown endpoint 'nope.nothing'/],
    [['--base-url', 'http://127.0.0.1:1', 'api', 'market.depth'], /parameter 'symbol' is required/],
    [['--base-url', 'http://127.0.0.1:1', 'api', 'market.depth', 'symbol'], /parameter 'symbol' must be written key=value/],
    [['--base-url', 'http://127.0.0.1:1', 'api', 'market.depth', 'symbol=X', 'limit=abc'], /parameter 'limit' must be an integer/],
    [['--base-url', 'not a url', 'time'], /is not a URL/],
    [['--base-url', 'ftp://x', 'time'], /^error: --base-url: 'ftp:\/\/x' uses ftp:; only http: and https: are supported \(e\.g\. http:\/\/127\.0\.0\.1:8080\)$/],
    [['--base-url', 'file:///tmp/x', 'time'], /--base-url: 'file:\/\/\/tmp\/x' uses file:/],
    [['api', 'general.time'], /no exchange address/],
    [['frobnicate'], /^error: unknown command 'frobnicate'\n/],
  ])('bad input %j is a clear error with exit code 2', async (args, message) => {
    const r = await cli(args as string[]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('HALYARD_BASE_URL and exchange.baseUrl must be http: or https: too, named in the error', async () => {
    const env = await cli(['time'], { HALYARD_BASE_URL: 'ftp://x' });
    expect(env.code).toBe(2);
    expect(env.err).toMatch(/^error: HALYARD_BASE_URL: 'ftp:\/\/x' uses ftp:; only http: and https: are supported/);
    const dir = mkdtempSync(join(tmpdir(), 'halyard-cli-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ exchange: { baseUrl: 'ftp://x' } }));
    const config = await cli(['--config', file, 'time']);
    expect(config.code).toBe(2);
    expect(config.err).toMatch(/exchange\.baseUrl: 'ftp:\/\/x' uses ftp:; only http: and https: are supported/);
    // record refuses it before creating the journal file.
    const journal = join(dir, 'journal.db');
    const record = await cli(['--base-url', 'ftp://x', 'record', '--symbol', 'BTCPHP', '--interval', '1m', '--from', '2024-03-01', '--journal', journal]);
    expect(record.code).toBe(2);
    expect(existsSync(journal)).toBe(false);
  });

  it('a signed call without keys says which variables to set', async () => {
    const r = await cli(['--base-url', server.baseUrl, 'api', 'account.account']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/HALYARD_API_KEY/);
  });

  it('a bad config file is reported with the file, each path and reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'halyard-cli-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ exchange: { recvWindow: 99_999, colour: 'blue' } }));
    const r = await cli(['--config', file, 'time']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(file);
    expect(r.err).toMatch(/exchange\.recvWindow/);
    expect(r.err).toMatch(/'colour'/);
  });

  it('an exchange error exits 1 with the typed error', async () => {
    server.setHandler((req) =>
      req.path === '/openapi/v1/time' ? { body: { serverTime: Date.now() } } : { status: 400, body: { code: -1121, msg: 'Invalid symbol.' } },
    );
    const r = await cli(['--base-url', server.baseUrl, 'api', 'market.depth', 'symbol=NOPE']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/-1121/);
    expect(r.err).toMatch(/Invalid symbol/);
  });
});
