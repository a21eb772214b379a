/**
 * Read a JSON config file (Halyard's config, a bot's config): a file that cannot be read or is not
 * JSON is a ConfigError naming the file and why, before any schema looks at it.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from './errors.ts';

export function readConfigJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory, not a file' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENOTDIR' ? 'a part of its path is not a directory' : (e as Error).message;
    throw new ConfigError(file, [`cannot read the file: ${why}`]);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ConfigError(file, [`not valid JSON: ${(e as Error).message}`]);
  }
}
