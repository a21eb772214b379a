import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, scrubText } from './logger.ts';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'debug' }, stream) };
}

describe('logger redaction', () => {
  it('redacts keys, secrets, signatures and listen keys by field name, nested too', () => {
    const { lines, logger } = capture();
    logger.info(
      { apiKey: 'AKEY123', apiSecret: 'S3CRET', config: { secret: 'inner' }, headers: { 'x-service-apikey': 'AKEY123' }, listenKey: 'LK1' },
      'hello',
    );
    const out = lines.join('');
    for (const secret of ['AKEY123', 'S3CRET', 'inner', 'LK1']) expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED]');
  });

  it('scrubs signatures and listen keys out of URLs and messages', () => {
    const { lines, logger } = capture();
    logger.info({ url: 'http://h/openapi/v1/order?symbol=BTCPHP&timestamp=1&signature=abcdef0123' }, 'GET /openapi/ws/LISTENKEY42');
    const out = lines.join('');
    expect(out).not.toContain('abcdef0123');
    expect(out).not.toContain('LISTENKEY42');
    expect(scrubText('PUT /openapi/v1/userDataStream?listenKey=XYZ')).toBe('PUT /openapi/v1/userDataStream?listenKey=[REDACTED]');
  });
});
