import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLogLine, StrategyLogFile } from './log-file.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-log-file-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T = Date.UTC(2026, 1, 1, 0, 1);

describe('StrategyLogFile', () => {
  it('writes one line an entry, in batches, keeps the first for the terminal and moves the file to its final name', () => {
    const log = new StrategyLogFile(join(dir, 'run.log.part'), 2);
    for (let i = 0; i < 2500; i++) log.add({ strategy: 's', time: T + i * 60_000, message: `line ${i}`, ...(i === 0 ? { data: { close: 9.5 } } : {}) });
    expect(existsSync(join(dir, 'run.log.part'))).toBe(true); // two batches of 1000 written already
    expect(log.close(join(dir, 'run.log'))).toBe(join(dir, 'run.log'));
    expect(existsSync(join(dir, 'run.log.part'))).toBe(false);
    const lines = readFileSync(join(dir, 'run.log'), 'utf8').split('\n');
    expect(lines).toHaveLength(2501); // and a final newline
    expect(lines[0]).toBe('2026-02-01 00:01 UTC  line 0 {"close":9.5}');
    expect(lines[2499]).toMatch(/ line 2499$/);
    expect(log.count).toBe(2500);
    expect(log.first).toEqual(['2026-02-01 00:01 UTC  line 0 {"close":9.5}', '2026-02-01 00:02 UTC  line 1']);
  });

  it('leaves no file when nothing was logged', () => {
    const log = new StrategyLogFile(join(dir, 'quiet.log.part'));
    expect(log.close(join(dir, 'quiet.log'))).toBeUndefined();
    expect(existsSync(join(dir, 'quiet.log.part')) || existsSync(join(dir, 'quiet.log'))).toBe(false);
  });

  it('a file that cannot be written is reported, and the lines are still counted', () => {
    const log = new StrategyLogFile(join(dir, 'no-such-folder', 'run.log.part'), 1);
    for (let i = 0; i < 1500; i++) log.add({ strategy: 's', time: T, message: `line ${i}` });
    expect(log.close(join(dir, 'run2.log'))).toBeUndefined();
    expect(log.error?.message).toMatch(/ENOENT/);
    expect(log.count).toBe(1500);
    expect(log.first).toEqual(['2026-02-01 00:01 UTC  line 0']);
  });

  it('shows data JSON cannot write as text', () => {
    expect(formatLogLine({ strategy: 's', time: T, message: 'big', data: { n: 1n } })).toBe('2026-02-01 00:01 UTC  big [object Object]');
  });
});
