/**
 * `mkdir -p` that always ends. Node's own (`mkdir(dir, { recursive: true })`, Node 20 and 22)
 * spins forever at full CPU when a part of the path exists but cannot hold the next one and the
 * file system answers ENOENT rather than ENOTDIR: a folder under /proc, or under a dangling
 * symlink. Node reads ENOENT as "the parent is missing", makes the parent (EEXIST: fine) and tries
 * again. A backtest given `--out-dir /proc/x` hung that way, printing nothing.
 *
 * Here the missing parts are found first (from the path down to the nearest existing folder) and
 * made one at a time, each with a plain mkdir: a part refused is thrown as the error of that
 * part (ENOENT, ENOTDIR, EACCES...), which callers report with the file and the operation.
 */
import { lstatSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Whether anything is at `p` itself (a dangling symlink is something: making a folder there fails). */
function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Make `dir` and any missing parents; nothing when it is a folder already. */
export function makeDirs(dir: string): void {
  const target = path.resolve(dir);
  // Something other than a folder there already: mkdir says so (EEXIST).
  if (exists(target) && !isDirectory(target)) mkdirSync(target);
  const missing: string[] = [];
  // Down to the nearest part that exists, whatever it is: the first mkdir under it says what is wrong.
  for (let at = target; !exists(at); ) {
    missing.push(at);
    const up = path.dirname(at);
    if (up === at) break;
    at = up;
  }
  for (let i = missing.length - 1; i >= 0; i--) {
    const part = missing[i] as string;
    try {
      mkdirSync(part);
    } catch (e) {
      // Made meanwhile by someone else (two sweeps writing to one folder): as good as made here.
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' && isDirectory(part)) continue;
      throw e;
    }
  }
}
