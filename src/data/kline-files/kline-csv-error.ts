/**
 * A kline file that cannot be imported as is: names the file, the line (1-based) and the reason.
 *
 * Messages stay short whatever the file holds: every piece of the file a reason quotes goes
 * through `quoted` (at most QUOTE_CHARS of it, then how long it was), and a reason is cut at
 * REASON_CHARS as a last guard, so a megabyte-long field never becomes a megabyte-long message
 * (issue 24: a 60 MiB line once gave a 63 MB error).
 */

/** Characters of an offending field or line quoted in a message: enough to recognise it. */
export const QUOTE_CHARS = 80;

/** A reason longer than this (it should never be: pieces of the file are `quoted`) is cut here. */
export const REASON_CHARS = 600;

/** `text` in single quotes, its first QUOTE_CHARS characters and its length when longer. */
export function quoted(text: string, max = QUOTE_CHARS): string {
  if (text.length <= max) return `'${text}'`;
  return `'${text.slice(0, max)}...' (${text.length} characters)`;
}

/** `text` as is, or its first QUOTE_CHARS characters and its length when longer (a value shown unquoted). */
export function clipped(text: string, max = QUOTE_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length} characters)`;
}

export class KlineCsvError extends Error {
  readonly file: string;
  readonly line: number | undefined;
  readonly reason: string;
  constructor(file: string, line: number | undefined, reason: string) {
    const r = reason.length <= REASON_CHARS ? reason : `${reason.slice(0, REASON_CHARS)}... (message cut)`;
    super(line === undefined ? `${file}: ${r}` : `${file}:${line}: ${r}`);
    this.name = 'KlineCsvError';
    this.file = file;
    this.line = line;
    this.reason = r;
  }
}
