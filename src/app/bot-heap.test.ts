import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { botHeapExecArgv, isBotCommand } from './bot-heap.ts';

describe('bot heap settings', () => {
  it('apply to run and start only', () => {
    expect(isBotCommand(['run', '--config', 'bot.json'])).toBe(true);
    expect(isBotCommand(['start', '--speed', '60'])).toBe(true);
    expect(isBotCommand(['backtest', '--strategy', 'run'])).toBe(false);
    expect(isBotCommand([])).toBe(false);
  });

  it('can be turned off', () => {
    expect(botHeapExecArgv({})).toEqual(['--semi-space-growth-factor=1']);
    expect(botHeapExecArgv({ HALYARD_BOT_HEAP: '0' })).toEqual([]);
  });

  it('keep the new space at its initial size when set from inside the process', () => {
    // The premise of bot-heap.ts: set at run time (not on the command line), the flag holds the nursery small.
    const script = `
      const v8 = require('node:v8');
      if (process.argv[1] === 'on') v8.setFlagsFromString(process.argv[2]);
      const keep = [];
      for (let i = 0; i < 2e6; i++) { const o = { a: i, b: 'x' + i }; if (i % 1000 === 0) keep.push(o); }
      console.log(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);`;
    const size = (mode: string) => Number(execFileSync(process.execPath, ['-e', script, mode, botHeapExecArgv({})[0] as string], { encoding: 'utf8', cwd: fileURLToPath(new URL('.', import.meta.url)) }).trim());
    const on = size('on');
    expect(on).toBeLessThanOrEqual(4 * 2 ** 20);
    expect(size('off')).toBeGreaterThan(on);
  });
});
