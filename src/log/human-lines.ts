/**
 * A pino destination for people: each JSON line the logger writes becomes one readable line,
 * `warn  retrying read  endpoint=general.time attempt=1 delay=250: <error>`, for a CLI on a
 * terminal (a pipe or a file keeps pino's JSON, which tools read). Only the presentation changes:
 * the logger has already redacted secrets and scrubbed URLs before the line is serialised.
 */
import { Writable } from 'node:stream';

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
/** Fields every line carries (shown differently or not at all). */
const OMIT = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err', 'error']);

/** One pino JSON line as text; a line that is not JSON passes through as it is. */
export function humanLine(json: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  if (typeof o !== 'object' || o === null) return json;
  const level = LEVELS[o['level'] as number] ?? String(o['level'] ?? '');
  const fields = Object.entries(o)
    .filter(([k]) => !OMIT.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  const err = o['error'] ?? (o['err'] as { message?: unknown } | undefined)?.message;
  return `${level.padEnd(5)} ${String(o['msg'] ?? '')}${fields.length ? `  ${fields.join(' ')}` : ''}${err === undefined ? '' : `: ${String(err)}`}`;
}

/** A stream that writes each line it is given to `out` as `humanLine` makes it. */
export function humanLines(out: NodeJS.WritableStream): Writable {
  let rest = '';
  return new Writable({
    write(chunk: Buffer | string, _enc, done) {
      const text = rest + chunk.toString();
      const lines = text.split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line !== '') out.write(`${humanLine(line)}\n`);
      done();
    },
    final(done) {
      if (rest !== '') out.write(`${humanLine(rest)}\n`);
      done();
    },
  });
}
