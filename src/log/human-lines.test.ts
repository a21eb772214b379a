import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { humanLine, humanLines } from './human-lines.ts';
import { createLogger } from './logger.ts';

describe('human log lines', () => {
  it('turns a pino JSON line into one readable line: level, message, fields, error last', () => {
    const line = JSON.stringify({ level: 40, time: 1, pid: 2, hostname: 'h', endpoint: 'general.time', attempt: 1, delay: 250, error: 'connect ECONNREFUSED', msg: 'retrying read' });
    expect(humanLine(line)).toBe('warn  retrying read  endpoint=general.time attempt=1 delay=250: connect ECONNREFUSED');
    expect(humanLine(JSON.stringify({ level: 30, msg: 'hello', nested: { a: 1 } }))).toBe('info  hello  nested={"a":1}');
    expect(humanLine('not json')).toBe('not json');
  });

  it('is a logger destination: secrets are still redacted, lines split across writes are joined', () => {
    let text = '';
    const out = new Writable({
      write(chunk: Buffer, _enc, done) {
        text += chunk.toString();
        done();
      },
    });
    const dest = humanLines(out);
    const log = createLogger({ level: 'info' }, dest);
    log.warn({ apiSecret: 'abc', url: 'http://x/openapi/v1/order?signature=deadbeef' }, 'signed call failed');
    dest.write('{"level":30,"msg":"spl');
    dest.write('it"}\n');
    expect(text).toBe('warn  signed call failed  apiSecret=[REDACTED] url=http://x/openapi/v1/order?signature=[REDACTED]\ninfo  split\n');
  });
});
