import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS } from './commands/catalog.ts';
import { commandNameOf, positionalsOf, runCli, unknownArgumentsOnce } from './index.ts';

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { env: {}, out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('commandNameOf: the command the CLI loads', () => {
  it('is the first argument that is not an option, skipping the values of the global options that take one', () => {
    expect(commandNameOf(['backtest', '--symbol', 'X'])).toBe('backtest');
    expect(commandNameOf(['--config', 'c.json', 'backtest'])).toBe('backtest');
    expect(commandNameOf(['--base-url', 'http://h', '--log-level', 'debug', 'time'])).toBe('time');
    expect(commandNameOf(['--config=c.json', '--help', 'strategies'])).toBe('strategies');
    expect(commandNameOf(['--help'])).toBeUndefined();
    expect(commandNameOf(['--', 'backtest'])).toBeUndefined();
    expect(commandNameOf([])).toBeUndefined();
  });
});

describe('runCli: one command module loaded, every command listed', () => {
  it('--help lists every command of the catalog, in its order, with its line', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    const listed = [...help.out.matchAll(/^ {2}halyard ([\w-]+)/gm)].map((m) => m[1]);
    expect(listed).toEqual(Object.keys(COMMANDS));
    for (const info of Object.values(COMMANDS)) expect(help.out.replace(/\s+/g, ' ')).toContain(info.describe);
  });

  it('-h is --help, and --version prints package.json\'s version (exit 0)', async () => {
    const [short, long] = [await cli(['-h']), await cli(['--help'])];
    expect(short).toEqual(long);
    const version = await cli(['--version']);
    expect(version.code).toBe(0);
    expect(version.out.trim()).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
  });

  it('runs the named command with its own options, after global options', async () => {
    const r = await cli(['--log-level', 'silent', 'strategies', 'grid']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^grid: /);
    const help = await cli(['backtest', '--help']);
    expect(help.out).toContain('--strategy');
    // Every option says what it does, the global ones included (--log-level had only its choices).
    for (const command of [[], ['time'], ['backtest']]) {
      const text = (await cli([...command, '--help'])).out;
      expect(text.replace(/\s+/g, ' '), command.join(' ')).toMatch(/--log-level\s+what the exchange client \(api, time, exchange-info, record\) and the sandbox command log to stderr/);
    }
  });

  it('--help calls the options read as numbers [number]; they are still read as the text typed', async () => {
    // An option's help: its line and the wrapped ones after it, up to the next option (indented
    // further when a short alias, `-h, --help`, takes the first column).
    const optionHelp = (help: string, flag: string): string => help.split(/\n(?= +-)/).find((b) => b.trimStart().startsWith(`${flag} `)) ?? '';
    const numbers: Record<string, string[]> = {
      backtest: ['--slippage-bps', '--volume-share', '--workers', '--folds', '--train-bars', '--test-bars'],
      sandbox: ['--port'],
      demo: ['--hours', '--speed'],
    };
    for (const [command, flags] of Object.entries(numbers)) {
      const help = (await cli([command, '--help'])).out;
      for (const flag of flags) {
        expect(optionHelp(help, flag), `${command} ${flag}`).toContain('[number]');
        expect(optionHelp(help, flag), `${command} ${flag}`).not.toContain('[string]');
      }
    }
    expect(optionHelp((await cli(['demo', '--help'])).out, '--hours')).toMatch(/\[number\] \[default: 12\]/);
    // Text as typed, never a number yargs made of it (1e2 would be 100, 1e9 1000000000).
    const hours = await cli(['demo', '--hours', '1e2']);
    expect(hours.code).toBe(2);
    expect(hours.err).toBe("error: --hours: expected a number of hours from 1 to 72, got '1e2'");
    const port = await cli(['sandbox', '--port', '1e9']);
    expect(port.code).toBe(2);
    expect(port.err).toBe("error: --port: expected a port number from 0 (any free port) to 65535, got '1e9'");
  });

  it('an option given twice is refused unless it is repeatable, dashed names included (--exchange-info)', async () => {
    const base = ['backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--interval', '1m', '--journal', join(tmpdir(), 'halyard-none', 'j.db')];
    const twice = await cli([...base, '--fee', '0.001', '--fee', '0.002']);
    expect([twice.code, twice.err]).toEqual([2, 'error: --fee was given 2 times (0.001, 0.002): give it once\n(see `halyard --help`)']);
    for (const files of [['a.json'], ['a.json', 'b.json']]) {
      const r = await cli([...base, ...files.flatMap((f) => ['--exchange-info', f])]);
      expect(r.code).toBe(2);
      expect(r.err).not.toContain('give it once');
      expect(r.err).toContain('no journal at');
    }
  });

  it('a misspelt or missing command is a usage error with a suggestion (exit 2)', async () => {
    const typo = await cli(['bakctest']);
    expect(typo.code).toBe(2);
    expect(typo.err).toBe("error: unknown command 'bakctest' (did you mean backtest?)\n(see `halyard --help`)");
    expect((await cli(['--config', 'c.json', 'zzzzzz'])).err).toBe("error: unknown command 'zzzzzz'\n(see `halyard --help`)");
    expect((await cli([])).err).toContain('name a command');
  });

  it('a missing positional argument is named, with the usage (exit 2)', async () => {
    const r = await cli(['import']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('error: missing <file>: halyard import <file>\n(see `halyard --help`)');
    expect((await cli(['new-strategy'])).err).toBe('error: missing <name>: halyard new-strategy <name>\n(see `halyard --help`)');
  });
});

describe('runCli: --config is validated for every command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'halyard-cli-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a missing, unreadable or invalid file is a usage error naming the file and the field, even where the command reads no config', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ journal: { paht: 'x.db' } }));
    const csv = join(dir, 'BTCUSDT-1m.csv');
    writeFileSync(csv, '1709251200000,1,2,0.5,1.5,10,1709251259999\n1709251260000,1,2,0.5,1.5,10,1709251319999\n');
    const cases: [string[], RegExp][] = [
      [['strategies', '--config', join(dir, 'none.json')], /invalid configuration in .*none\.json:\n {2}- cannot read the file: no such file$/],
      [['--config', dir, 'strategies', 'grid'], /cannot read the file: it is a directory, not a file$/],
      [['--config', bad, 'import', csv, '--dry-run'], /invalid configuration in .*bad\.json:\n {2}- journal: unknown key\(s\) 'paht' \(did you mean 'path'\?\)$/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.out).toBe('');
      expect(r.err).toMatch(message);
      expect(r.code).toBe(2);
    }
    const ok = await cli(['--config', join(dir, 'none.json'), 'strategies', '--help']);
    expect(ok.code).toBe(0);
  });
});

describe('runCli: an empty value is refused', () => {
  it('for any option that takes text, by name, before the command runs; positionals are left to their command', async () => {
    const cases: [string[], string][] = [
      [['exchange-info', '--symbol', ''], '--symbol'],
      [['backtest', '--strategy', 'sma-crossover', '--symbol', ' ', '--interval', '1m'], '--symbol'],
      [['backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--interval', '1m', '--out-dir='], '--out-dir'],
      [['backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--interval', '1m', '--param', 'fast=5', '--param', ''], '--param'],
      [['--config', '', 'strategies'], '--config'],
      [['data', '--journal', ''], '--journal'],
    ];
    for (const [args, flag] of cases) {
      const r = await cli(args);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(new RegExp(`^error: ${flag} is empty: give it a value`));
    }
    const positional = await cli(['strategies', '']);
    expect(positional.code).toBe(2);
    expect(positional.err).toContain('strategy reference is empty');
  });

  it('positionalsOf reads a command string', () => {
    expect(positionalsOf(COMMANDS.import.command)).toEqual(['file']);
    expect(positionalsOf(COMMANDS.api.command)).toEqual(['endpoint', 'params']);
    expect(positionalsOf(COMMANDS.backtest.command)).toEqual([]);
  });
});

describe('runCli: unknown arguments', () => {
  it('are listed once each, as typed', async () => {
    const r = await cli(['strategies', '--bogus-flag']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('error: Unknown argument: --bogus-flag\n(see `halyard --help`)');
    expect(unknownArgumentsOnce('Unknown arguments: bogus-flag, bogusFlag, other-one, otherOne', ['x', '--bogus-flag', '--other-one=2'])).toBe('Unknown arguments: --bogus-flag, --other-one');
    expect(unknownArgumentsOnce('Unknown arguments: bogusFlag, extra', ['--bogusFlag', 'extra'])).toBe('Unknown arguments: --bogusFlag, extra');
    expect(unknownArgumentsOnce('Unknown argument: x', ['-x'])).toBe('Unknown argument: -x');
    expect(unknownArgumentsOnce('Missing required argument: symbol', [])).toBe('Missing required argument: symbol');
  });
});

describe('runCli: a misspelt option', () => {
  it('is named, with the nearest known option, before a missing required option is reported', async () => {
    const typo = await cli(['backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--intervl', '1m']);
    expect(typo.code).toBe(2);
    expect(typo.err).toBe('error: Unknown argument: --intervl (did you mean --interval?)\n(see `halyard --help`)');
    expect((await cli(['data', '--gpas'])).err).toContain('--gpas (did you mean --gaps?)');
    expect((await cli(['--confg', 'c.json', 'strategies'])).err).toContain('--confg (did you mean --config?)');
    expect((await cli(['import', 'x.csv', '--dryrun'])).err).toContain('--dryrun (did you mean --dry-run?)');
    // The start of one option's name (a shortened --out-dir); none when it starts several, or is too short to tell.
    expect((await cli(['backtest', '--strategy', 's', '--symbol', 'S', '--interval', '1m', '--out', 'x'])).err).toContain('--out (did you mean --out-dir?)');
    expect((await cli(['backtest', '--strategy', 's', '--symbol', 'S', '--interval', '1m', '--walk', 'x'])).err).toContain('--walk (did you mean --walk-forward?)');
    expect((await cli(['backtest', '--strategy', 's', '--symbol', 'S', '--interval', '1m', '--s', 'x'])).err).toContain('Unknown argument: --s\n');
    const two = await cli(['strategies', '--bogus-flag', '--other=1']);
    expect(two.err).toBe('error: Unknown arguments: --bogus-flag, --other\n(see `halyard --help`)');
    expect((await cli(['backtest', '--help', '--foo'])).code).toBe(0);
    expect((await cli(['strategies', '--no-such'])).err).toContain('Unknown argument: --no-such');
  });
});
