import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from './errors.ts';
import { checkJournalPath, checkOutputDir, checkOutputFile, ioFailure, ioStep, journalSource } from './paths.ts';

const dir = mkdtempSync(join(tmpdir(), 'halyard-paths-'));
const file = join(dir, 'f.txt');
writeFileSync(file, 'x');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('path checks', () => {
  it('pass paths that are, or can become, what they name', () => {
    expect(() => checkJournalPath(join(dir, 'new.db'), '--journal')).not.toThrow();
    expect(() => checkJournalPath(file, '--journal')).not.toThrow();
    expect(() => checkOutputDir(join(dir, 'a', 'b'), '--out-dir')).not.toThrow();
    expect(() => checkOutputFile(join(dir, 'a', 'x.json'), '--json')).not.toThrow();
  });

  it('refuse the others as usage errors naming the flag', () => {
    expect(() => checkJournalPath(dir, '$HALYARD_JOURNAL')).toThrowError(new UsageError(`$HALYARD_JOURNAL ${dir} is a directory: name the journal file (e.g. ${join(dir, 'halyard.db')})`));
    expect(() => checkOutputDir(file, '--out-dir')).toThrowError(UsageError);
    expect(() => checkOutputDir(join(file, 'x', 'y'), '--out-dir')).toThrowError(`--out-dir ${join(file, 'x', 'y')}: ${file} is not a directory`);
    expect(() => checkOutputFile(dir, '--report')).toThrowError(`--report ${dir} is a directory: name a file`);
  });

  it('journalSource says where the journal path came from', () => {
    expect(journalSource('j.db', { HALYARD_JOURNAL: 'e.db' }, 'c.db')).toBe('--journal');
    expect(journalSource(undefined, { HALYARD_JOURNAL: 'e.db' }, 'c.db')).toBe('$HALYARD_JOURNAL');
    expect(journalSource(undefined, {}, 'c.db')).toBe("the config's journal.path");
  });
});

describe('ioFailure / ioStep', () => {
  it('say the operation and the file of a file-system error, in words', async () => {
    const errno = Object.assign(new Error("EACCES: permission denied, open '/x/run.json'"), { code: 'EACCES' });
    expect((ioFailure(errno, 'write the JSON file', '/x/run.json') as Error).message).toBe('cannot write the JSON file /x/run.json: permission denied (EACCES)');
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    await expect(ioStep('write the HTML report', '/x/r.html', () => Promise.reject(full))).rejects.toThrowError('cannot write the HTML report /x/r.html: no space left on the device (ENOSPC)');
    const other = new RangeError('not an I/O error');
    expect(ioFailure(other, 'write', 'f')).toBe(other);
  });
});
