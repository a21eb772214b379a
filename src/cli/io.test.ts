/** io.ts: when the CLI colours its output (a terminal, NO_COLOR, FORCE_COLOR). */
import { describe, expect, it } from 'vitest';
import { isTerminal, useColor } from './io.ts';
import type { CliIo } from './io.ts';

const io = (env: Record<string, string>, tty?: CliIo['tty']): CliIo => ({ env, out: () => {}, err: () => {}, ...(tty === undefined ? {} : { tty }) });

describe('useColor', () => {
  it('colours a terminal only', () => {
    expect(useColor(io({}, { out: true, err: false }), 'out')).toBe(true);
    expect(useColor(io({}, { out: true, err: false }), 'err')).toBe(false);
    expect(useColor(io({}, { out: false }), 'out')).toBe(false);
  });

  it('NO_COLOR turns it off (an empty one does not); FORCE_COLOR turns it on, FORCE_COLOR=0 or false off', () => {
    const tty = { out: true, err: true };
    expect(useColor(io({ NO_COLOR: '1' }, tty), 'out')).toBe(false);
    expect(useColor(io({ NO_COLOR: '1', FORCE_COLOR: '1' }, tty), 'out')).toBe(false);
    expect(useColor(io({ NO_COLOR: '' }, tty), 'out')).toBe(true);
    expect(useColor(io({ FORCE_COLOR: '1' }, { out: false }), 'out')).toBe(true);
    expect(useColor(io({ FORCE_COLOR: '' }, { out: false }), 'out')).toBe(true);
    expect(useColor(io({ FORCE_COLOR: '0' }, tty), 'out')).toBe(false);
    expect(useColor(io({ FORCE_COLOR: 'false' }, tty), 'out')).toBe(false);
  });

  it("without io.tty, the process's streams say (a test worker's are pipes)", () => {
    expect(isTerminal(io({}), 'out')).toBe(process.stdout.isTTY === true);
    expect(isTerminal(io({}), 'err')).toBe(process.stderr.isTTY === true);
  });
});
