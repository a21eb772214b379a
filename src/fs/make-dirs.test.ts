import { existsSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeDirs } from './make-dirs.ts';

const dirs: string[] = [];
const scratch = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'halyard-make-dirs-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('makeDirs', () => {
  it('makes every missing part, and does nothing for a folder that exists', () => {
    const root = scratch();
    const deep = join(root, 'a', 'b', 'c');
    makeDirs(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(() => makeDirs(deep)).not.toThrow();
  });

  it('refuses a path through a file with ENOTDIR', () => {
    const root = scratch();
    writeFileSync(join(root, 'f'), '');
    expect(() => makeDirs(join(root, 'f', 'x'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }) as Error);
  });

  it('ends with ENOENT under a dangling symlink (Node 20 recursive mkdir spins there)', () => {
    const root = scratch();
    symlinkSync(join(root, 'gone'), join(root, 'dangling'));
    expect(() => makeDirs(join(root, 'dangling', 'out'))).toThrow(expect.objectContaining({ code: 'ENOENT' }) as Error);
    expect(existsSync(join(root, 'gone'))).toBe(false);
  });

  it.skipIf(!existsSync('/proc/self'))('ends with an error under /proc (procfs answers ENOENT, not ENOTDIR)', () => {
    expect(() => makeDirs('/proc/halyard-not-a-folder/x')).toThrow(expect.objectContaining({ code: 'ENOENT' }) as Error);
  });
});

describe('makeDirs on a file', () => {
  it('refuses a path that is a file with EEXIST', () => {
    const root = scratch();
    writeFileSync(join(root, 'f'), '');
    expect(() => makeDirs(join(root, 'f'))).toThrow(expect.objectContaining({ code: 'EEXIST' }) as Error);
  });
});
