/**
 * File paths given on the command line, checked before any work: a journal path that is a
 * directory, an output folder that exists as a file, an output file whose folder cannot be one.
 * Each is a usage error naming the flag (exit 2). A write that still fails (permission, a full
 * disk) is reported by `ioStep` with the file and the operation, not as a bare errno (exit 1).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from './errors.ts';

type Kind = 'directory' | 'file' | 'other';

/** What is at `p`; undefined when nothing is (or a part of its path is not a folder, or it cannot be looked at). */
function kindOf(p: string): Kind | undefined {
  try {
    const st = statSync(p);
    return st.isDirectory() ? 'directory' : st.isFile() ? 'file' : 'other';
  } catch {
    return undefined;
  }
}

/** Whether `p` is a directory. */
export function isDirectory(p: string): boolean {
  return kindOf(p) === 'directory';
}

/** The nearest existing part of `p` (itself or a parent) when it is not a directory: what stops a folder being made there. */
function blockingPart(p: string): string | undefined {
  let at = path.resolve(p);
  for (;;) {
    const kind = kindOf(at);
    if (kind !== undefined) return kind === 'directory' ? undefined : at;
    const up = path.dirname(at);
    if (up === at) return undefined;
    at = up;
  }
}

/** Where the journal's path came from, for messages: the flag, the variable or the config. */
export function journalSource(explicit: string | undefined, env: NodeJS.ProcessEnv, configured: string | undefined): string {
  if (explicit) return '--journal';
  if (env['HALYARD_JOURNAL']) return '$HALYARD_JOURNAL';
  if (configured) return "the config's journal.path";
  return 'the journal';
}

/** A journal path must be a file (or nothing yet): a directory is refused naming where the path came from. */
export function checkJournalPath(file: string, source: string): void {
  const kind = kindOf(file);
  if (kind === 'directory') throw new UsageError(`${source} ${file} is a directory: name the journal file (e.g. ${path.join(file, 'halyard.db')})`);
  if (kind === 'other') throw new UsageError(`${source} ${file} is not a regular file: name a journal file`);
}

/** An output folder: it, or the nearest part of its path that exists, must be a directory. */
export function checkOutputDir(dir: string, flag: string): void {
  const blocker = blockingPart(dir);
  if (blocker === undefined) return;
  if (blocker === path.resolve(dir)) throw new UsageError(`${flag} ${dir} exists and is not a directory: name a folder`);
  throw new UsageError(`${flag} ${dir}: ${blocker} is not a directory, so no folder can be made there`);
}

/** An output file: not a directory, and its folder must be one (or makeable). */
export function checkOutputFile(file: string, flag: string): void {
  if (kindOf(file) === 'directory') throw new UsageError(`${flag} ${file} is a directory: name a file`);
  const blocker = blockingPart(path.dirname(path.resolve(file)));
  if (blocker !== undefined) throw new UsageError(`${flag} ${file}: ${blocker} is not a directory, so the file cannot be written there`);
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'the file system is read-only',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of its path is not a directory',
  ENOENT: 'no such file or directory',
  EEXIST: 'something is already there',
  EMFILE: 'too many open files',
  EIO: 'an input/output error',
};

/** A file-system error said with the file and the operation ("cannot write the JSON file x.json: permission denied (EACCES)"); other errors as they are. */
export function ioFailure(e: unknown, operation: string, file: string): unknown {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return e;
  return new Error(`cannot ${operation} ${file}: ${REASONS[code] ?? (e as Error).message} (${code})`, { cause: e });
}

/** Runs one file-system step; its failure names the file and the operation. */
export async function ioStep<T>(operation: string, file: string, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    throw ioFailure(e, operation, file);
  }
}
