/**
 * Issue 21 acceptance "Bad input: unknown config keys, wrong types, a key missing from the
 * environment, a strategy that does not exist, a venue unreachable at start: a message naming each
 * problem, a non-zero exit, nothing left half-started (no listen key left open, no order sent)".
 * Through `halyard run` in-process (runCli: the exit code and stderr a user sees) and startBot,
 * against the sandbox over HTTP and WebSocket on 127.0.0.1 where a venue is needed.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBotConfig } from '../src/bot/config.ts';
import { BotStartError } from '../src/bot/errors.ts';
import { startBot } from '../src/bot/run-bot.ts';
import { runCli } from '../src/cli/index.ts';
import { ConfigError } from '../src/config/errors.ts';
import { openJournal } from '../src/journal/journal.ts';
import { createLogger } from '../src/log/logger.ts';
import { closeAfterEach, sandboxClient } from './support/sandbox-fixture.ts';
import { FIXTURES, tempDir, testSandbox } from './bot-harness.ts';

const defer = closeAfterEach();
const silent = createLogger({ level: 'silent' });

async function halyardRun(file: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; err: string; out: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['run', '--config', file], { env, out: (t) => out.push(t), err: (t) => err.push(t), tty: { out: false, err: false } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function configFile(dir: string, value: unknown): string {
  const file = join(dir, 'bot.json');
  writeFileSync(file, JSON.stringify(value));
  return file;
}

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('bot config: every problem at once, each with its path', () => {
  it('unknown keys (with the key meant), wrong types and a bad venue, in one report', () => {
    const e = (() => {
      try {
        parseBotConfig({ strategies: [{ strategy: 'sma-crossover', parms: {}, capital: { PHP: 1000 } }], venue: 'binance', onStop: 'close', journl: 'x.db', stream: { keepaliveMs: '30m' } }, 'bot.json');
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(ConfigError);
    const issues = (e as ConfigError).issues;
    expect(issues).toEqual(
      expect.arrayContaining([
        "(root): unknown key(s) 'journl' (did you mean 'journal'?)",
        "strategies.0: unknown key(s) 'parms' (did you mean 'params'?)",
        expect.stringMatching(/^strategies\.0\.capital\.PHP: .*expected string/),
        expect.stringMatching(/^venue: expected 'sandbox' or \{ baseUrl, wsUrl \}/),
        expect.stringMatching(/^onStop: .*"cancel".*"leave"/),
        expect.stringMatching(/^stream\.keepaliveMs: /),
      ]),
    );
    expect(issues).toHaveLength(6);
  });

  it('`halyard run` prints them all and exits 2, having started nothing (no journal file)', async () => {
    const dir = tempDir(defer);
    const journal = join(dir, 'bot.db');
    const r = await halyardRun(configFile(dir, { strategies: [{ strategy: 'timed-orders', params: { quantity: 5 } }], journal, onStop: 1, extra: true }));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/onStop: /);
    expect(r.err).toMatch(/\(root\): unknown key\(s\) 'extra'/);
    expect(existsSync(journal)).toBe(false);
  });

  it('`halyard run --base-url` is refused (the venue comes from the config file), exit 2, nothing started', async () => {
    const dir = tempDir(defer);
    const journal = join(dir, 'bot.db');
    const file = configFile(dir, { strategies: [{ strategy: 'timed-orders', params: { quantity: 5 } }], journal });
    const err: string[] = [];
    const code = await runCli(['run', '--config', file, '--base-url', 'http://127.0.0.1:1'], { env: {}, out: () => {}, err: (t) => err.push(t), tty: { out: false, err: false } });
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(/--base-url: `halyard run` takes the venue from its config file's "venue"/);
    expect(existsSync(journal)).toBe(false);
  });

  it('a strategy that does not exist and params its own schema refuses: both named, with their paths, exit 2', async () => {
    const dir = tempDir(defer);
    const journal = join(dir, 'bot.db');
    const file = configFile(dir, {
      strategies: [
        { strategy: 'no-such-strategy' },
        { strategy: 'sma-crossover', params: { fast: 'ten', slow: 2 } },
        { strategy: 'sma-crossover', symbols: ['BTCPHP', 'ETHPHP'] },
      ],
      journal,
    });
    const r = await halyardRun(file);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/strategies\.0\.strategy: unknown strategy 'no-such-strategy'; available in .*sma-crossover/);
    expect(r.err).toMatch(/strategies\.1\.params: param 'fast': expected integer >= 2, got "ten"/);
    expect(r.err).toMatch(/strategies\.1\.params: param 'slow': expected integer >= 3, got number 2/);
    expect(r.err).toMatch(/strategies\.2\.symbols: strategy 'sma-crossover' trades BTCPHP with these params, not BTCPHP, ETHPHP/);
    expect(existsSync(journal)).toBe(false);
  });

  it('two instances of one strategy need names of their own; capital beyond what the account holds is refused before anything is sent', async () => {
    const dir = tempDir(defer);
    const r = await halyardRun(configFile(dir, { strategies: [{ strategy: 'sma-crossover' }, { strategy: 'sma-crossover', params: { symbol: 'ETHPHP' } }], journal: join(dir, 'bot.db') }));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/strategies\.1\.name: 'sma-crossover' is already the name of strategies\.0; give each instance of a strategy its own "name"/);

    const s = await testSandbox(defer);
    const e = await startBot({
      config: { strategies: [{ strategy: 'timed-orders', capital: { PHP: '100000000' } }], venue: 'sandbox', journal: join(dir, 'bot.db'), exchange: { retry: { maxAttempts: 1 } } },
      sandbox: s,
      env: {},
      strategiesDir: FIXTURES,
      logger: silent,
    }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as Error).message).toMatch(/strategies\.capital: capital: PHP allocated 100000000, the account holds 100000/);
    expect(existsSync(join(dir, 'bot.db'))).toBe(false);
    expect(s.listenKeys.active(s.clock.now())).toEqual([]);
  });

  it('a venue given by URL needs both keys in the environment: the missing one is named, exit 2, nothing contacted', async () => {
    const dir = tempDir(defer);
    const file = configFile(dir, { strategies: [{ strategy: 'sma-crossover' }], venue: { baseUrl: 'http://127.0.0.1:9', wsUrl: 'ws://127.0.0.1:9' }, journal: join(dir, 'bot.db') });
    const r = await halyardRun(file, { HALYARD_API_KEY: 'k'.repeat(32) });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/HALYARD_API_SECRET is not set/);
    expect(r.err).not.toMatch(/HALYARD_API_KEY is not set/);
    const both = await halyardRun(file, {});
    expect(both.err).toMatch(/HALYARD_API_KEY is not set[\s\S]*HALYARD_API_SECRET is not set/);
  });
});

describe('bot start-up against a venue that fails: a message naming it, nothing half-started', () => {
  it('a venue unreachable at start: exit 1 naming the address; no journal, no run', async () => {
    const dir = tempDir(defer);
    const port = await closedPort();
    const journal = join(dir, 'bot.db');
    const file = configFile(dir, {
      strategies: [{ strategy: 'sma-crossover' }],
      venue: { baseUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}` },
      journal,
      exchange: { retry: { maxAttempts: 1 } },
    });
    const r = await halyardRun(file, { HALYARD_API_KEY: 'k'.repeat(32), HALYARD_API_SECRET: 's'.repeat(32) });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`the venue at http://127.0.0.1:${port} is unreachable`);
    expect(existsSync(journal)).toBe(false);
  });

  it('a key the venue refuses: named; no listen key made, no order sent', async () => {
    const s = await testSandbox(defer);
    const dir = tempDir(defer);
    const e = await startBot({
      config: { strategies: [{ strategy: 'timed-orders' }], venue: { baseUrl: s.baseUrl, wsUrl: s.wsUrl }, journal: join(dir, 'bot.db'), exchange: { retry: { maxAttempts: 1 } } },
      env: { HALYARD_API_KEY: 'wrongKey00000000000000000000000000', HALYARD_API_SECRET: 'wrongSecret0000000000000000000000' },
      strategiesDir: FIXTURES,
      logger: silent,
    }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(BotStartError);
    expect((e as Error).message).toMatch(/the venue refused the API key \(HALYARD_API_KEY \/ HALYARD_API_SECRET\)/);
    expect(s.listenKeys.active(s.clock.now())).toEqual([]);
    const client = sandboxClient(s, defer);
    expect(await client.spot.openOrders({ symbol: 'BTCPHP' })).toEqual([]);
    expect(existsSync(join(dir, 'bot.db'))).toBe(false);
  });

  it('a user stream that never comes up (wrong WebSocket address): the listen key is closed again, no order sent, the run ended `error` with the reason', async () => {
    const s = await testSandbox(defer);
    const dir = tempDir(defer);
    const port = await closedPort();
    const journal = join(dir, 'bot.db');
    const ended: string[] = [];
    s.listenKeys.onInvalidated((_key, _account, reason) => ended.push(reason));
    const e = await startBot({
      config: {
        strategies: [{ strategy: 'timed-orders' }],
        venue: { baseUrl: s.baseUrl, wsUrl: `ws://127.0.0.1:${port}` },
        journal,
        exchange: { retry: { maxAttempts: 1 } },
        stream: { liveTimeoutMs: 300, handshakeTimeoutMs: 200, backoff: { baseMs: 50, maxMs: 100 } },
      },
      env: { HALYARD_API_KEY: s.apiKey, HALYARD_API_SECRET: s.apiSecret },
      strategiesDir: FIXTURES,
      logger: silent,
    }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(BotStartError);
    expect((e as Error).message).toMatch(/the user stream was not LIVE within 300 ms/);
    // A key was made (the stream got that far) and DELETEd by the clean-up.
    expect(ended).toEqual(['closed']);
    expect(s.listenKeys.active(s.clock.now())).toEqual([]);
    const client = sandboxClient(s, defer);
    expect(await client.spot.openOrders({ symbol: 'BTCPHP' })).toEqual([]);
    expect(await client.spot.historyOrders({ symbol: 'BTCPHP' })).toEqual([]);
    const j = openJournal(journal);
    defer(() => j.close());
    const runs = j.liveRuns.list();
    expect(runs.map((r) => [r.kind, r.exitReason])).toEqual([['live', 'error']]);
    expect(JSON.stringify(runs[0]?.exitDetail)).toMatch(/not LIVE within 300 ms/);
  });
});
