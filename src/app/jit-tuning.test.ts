import { describe, expect, it } from 'vitest';
import { JIT_FLAGS, jitExecArgv, tuneJit } from './jit-tuning.ts';

describe('jit tuning', () => {
  it('passes the tiering flags to child processes unless HALYARD_JIT_TUNING=0', () => {
    expect(jitExecArgv({})).toEqual([...JIT_FLAGS]);
    expect(jitExecArgv({ HALYARD_JIT_TUNING: '0' })).toEqual([]);
    expect(JIT_FLAGS.every((f) => /^--[a-z-]+=\d+$/.test(f))).toBe(true);
  });

  it('leaves V8 alone when turned off', () => {
    expect(tuneJit({ HALYARD_JIT_TUNING: '0' })).toBe(false);
  });
});
