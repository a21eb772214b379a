/** `halyard start`'s options: each bad value refused naming the flag, before any sandbox starts (exit 2). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../index.ts';
import { parseDuration, parseStartOptions } from './start-options.ts';
import { backtestCommands } from './start-summary.ts';
import { parseBotConfig } from '../../../bot/config.ts';

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['start', ...args], { env: {}, out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('halyard start options', () => {
  it('reads durations as typed: bare seconds, ms, s, m, h', () => {
    expect(parseDuration('90')).toBe(90_000);
    expect(parseDuration('1.5m')).toBe(90_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration(undefined)).toBeUndefined();
    expect(parseStartOptions({})).toMatchObject({ speed: 1, durationMs: undefined, historyBars: 720 });
  });

  it('refuses bad values naming the flag and echoing the text, exit 2, nothing started', async () => {
    for (const [args, message] of [
      [['--speed', '0'], "--speed: expected a clock speed from 1 (real time) to 1000, got '0'"],
      [['--speed', 'fast'], "--speed: expected a clock speed from 1 (real time) to 1000, got 'fast'"],
      [['--duration', 'soon'], "--duration: expected a time such as 90s, 10m or 2h (a bare number is seconds; at most 30 days), got 'soon'"],
      [['--duration', '0'], "--duration: expected a time such as 90s, 10m or 2h (a bare number is seconds; at most 30 days), got '0'"],
      [['--history', '-1'], "--history: expected a whole number of bars from 0 to 100000, got '-1'"],
      [['--history', '100001'], "--history: expected a whole number of bars from 0 to 100000, got '100001'"],
    ] as const) {
      const r = await cli([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toBe(`error: ${message}`);
      expect(r.out).toBe('');
    }
  });

  it('refuses a bot config that is missing, invalid, or names another venue', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'halyard-start-opts-'));
    const missing = await cli(['--bot', join(dir, 'none.json')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('cannot read the file: no such file');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ strategies: [{ strategy: 'sma-crossover', colour: 'red' }] }));
    const invalid = await cli(['--bot', bad]);
    expect(invalid.code).toBe(2);
    expect(invalid.err).toMatch(/strategies\.0.*colour/);
    const remote = join(dir, 'remote.json');
    writeFileSync(remote, JSON.stringify({ strategies: [{ strategy: 'sma-crossover' }], venue: { baseUrl: 'https://api.example.com', wsUrl: 'wss://api.example.com/ws' } }));
    const other = await cli(['--bot', remote]);
    expect(other.code).toBe(2);
    expect(other.err).toContain('`halyard start` runs on the embedded sandbox (venue "sandbox"): run `halyard run --config');
    expect(other.out).toBe('');
  });

  it('prints one backtest line per strategy: its symbols, interval, params and capital, over the minutes the run recorded', () => {
    const config = parseBotConfig({
      strategies: [
        { strategy: 'sma-crossover', params: { symbol: 'BTCPHP', interval: '5m', fast: 3, slow: 8 }, capital: { PHP: '100' } },
        { strategy: 'strategies/my one.ts', symbols: ['ETHPHP', 'BTCPHP'], params: { levels: [1, 2] } },
      ],
    });
    const t = Date.UTC(2026, 0, 5, 12, 0, 30_000 / 1000);
    expect(backtestCommands(config, { startedAt: t, endedAt: t + 5 * 60_000, journal: 'data/x.db' })).toEqual([
      'npx halyard backtest --strategy sma-crossover --symbol BTCPHP --interval 5m --journal data/x.db --from 2026-01-05T12:00 --to 2026-01-05T12:05 --param fast=3 --param slow=8 --balance PHP=100',
      "npx halyard backtest --strategy 'strategies/my one.ts' --symbol ETHPHP,BTCPHP --interval 1m --journal data/x.db --from 2026-01-05T12:00 --to 2026-01-05T12:05 --param levels=1,2",
    ]);
  });

  it("starts each line its strategy's warm-up before the run (its warm-up bars are in the journal), so the backtest decides its first bar where the live run did", () => {
    const config = parseBotConfig({ strategies: [{ strategy: 'sma-crossover', params: { symbol: 'BTCPHP', fast: 3, slow: 8 } }] });
    const t = Date.UTC(2026, 0, 5, 12, 0, 30);
    const lines = backtestCommands(config, { startedAt: t, endedAt: t + 5 * 60_000, journal: 'data/x.db', strategies: [{ warmupMs: 9 * 60_000 }] });
    expect(lines[0]).toContain('--from 2026-01-05T11:51 --to 2026-01-05T12:05');
  });
});
