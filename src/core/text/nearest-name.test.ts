import { describe, expect, it } from 'vitest';
import { editDistance, nearestByEdits } from './nearest-name.ts';

describe('nearestByEdits', () => {
  it('counts insertions, deletions, substitutions and swapped neighbours as one edit each', () => {
    expect([editDistance('journl', 'journal'), editDistance('retrys', 'retry'), editDistance('fsat', 'fast'), editDistance('slow', 'flow'), editDistance('', 'ab')]).toEqual([1, 1, 1, 1, 2]);
  });

  it('gives the closest known name within 2 edits and under half the letters, ignoring case; none for a short or far name', () => {
    expect(nearestByEdits('journl', ['log', 'journal', 'journey'])).toBe('journal');
    expect(nearestByEdits('OUT-DIR', ['out-dir', 'outdir'])).toBe('out-dir');
    expect(nearestByEdits('ab', ['abc'])).toBeUndefined(); // too short to guess
    expect(nearestByEdits('zzzzzz', ['journal'])).toBeUndefined();
    expect(nearestByEdits('helpp', ['help', 'hello'], ['help'])).toBe('hello');
  });
});
