/** `halyard demo` (what `npm start` ran before the live bot): the backtest demo on the embedded sandbox runs end to end and writes its report. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { runCli } from '../src/cli/index.ts';
import { openJournal } from '../src/journal/index.ts';

// Speed 1200 (a sandbox minute is 50 ms): at 3600 a loaded machine lags behind the market's bars
// and the agents re-anchor, so fewer minutes trade; that is the demo's behaviour, not a failure.
// Even at 1200 a busy machine (the rest of the suite runs beside this test) trades in only part
// of the minutes (21 of 90 seen at a load of 13 on two cores), so the test asks for enough bars
// to backtest, not for most of the hour: what it checks is the flow, end to end.
it('generates a synthetic market on the sandbox, records it, backtests it and writes the report', { timeout: 60_000 }, async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'halyard-start-'));
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['demo', '--hours', '1', '--speed', '1200', '--out-dir', outDir], {
    env: {},
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  });
  expect(err.join('\n')).toBe('');
  expect(code).toBe(0);
  const journal = openJournal(join(outDir, 'demo-journal.db'), { readonly: true });
  const range = journal.klines.klineRange('BTCPHP', '1m');
  journal.close();
  expect(range?.count).toBeGreaterThanOrEqual(10);
  const report = readdirSync(outDir).find((f) => f.endsWith('.html'));
  expect(report).toBeDefined();
  expect(readFileSync(join(outDir, report!), 'utf8')).toContain('price-chart');
  expect(out.join('\n')).toMatch(/report\s+\S+\.html/);
  expect(existsSync(join(outDir, report!.replace(/\.html$/, '.json')))).toBe(true);
  // The last line names the report as a file URL (a click opens it in most terminals).
  expect(out.join('\n')).toContain(`Open ${pathToFileURL(join(outDir, report!)).href} in a browser.`);
});

it('bad --hours and --speed are refused naming the flag and echoing the text', async () => {
  for (const [args, message] of [
    [['--hours', 'abc'], "--hours: expected a number of hours from 1 to 72, got 'abc'"],
    [['--hours', '100'], "--hours: expected a number of hours from 1 to 72, got '100'"],
    [['--speed', 'fast'], "--speed: expected a clock speed from 1 to 100000, got 'fast'"],
  ] as const) {
    const err: string[] = [];
    const code = await runCli(['demo', ...args], { env: {}, out: () => undefined, err: (t) => err.push(t) });
    expect(code).toBe(2);
    expect(err.join('\n')).toBe(`error: ${message}`);
  }
});

it('an --out-dir that cannot be a folder is refused before the sandbox starts, naming the flag', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'halyard-start-bad-'));
  const file = join(dir, 'a-file');
  writeFileSync(file, 'x');
  for (const [outDir, message] of [
    [file, `--out-dir ${file} exists and is not a directory: name a folder`],
    [join(file, 'sub'), `--out-dir ${join(file, 'sub')}: ${file} is not a directory, so no folder can be made there`],
  ] as const) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['demo', '--out-dir', outDir], { env: {}, out: (t) => out.push(t), err: (t) => err.push(t) });
    expect(code).toBe(2);
    expect(err.join('\n')).toBe(`error: ${message}`);
    expect(out).toEqual([]);
  }
  mkdirSync(join(dir, 'demo-journal.db'));
  const err: string[] = [];
  expect(await runCli(['demo', '--out-dir', dir], { env: {}, out: () => undefined, err: (t) => err.push(t) })).toBe(2);
  expect(err.join('\n')).toContain(`is a directory, where the demo writes its journal file; choose another --out-dir`);
});
