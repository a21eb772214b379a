/**
 * The HTTP answer of a refused WebSocket upgrade, read into a typed error: the venue (and the
 * sandbox) answer a dead listen key with 400 `{"code":-1125,"msg":...}`, which tells the user
 * stream to make a new key instead of retrying the old one. The body is capped and read with a
 * bound, so a server that never ends it cannot hold the attempt.
 */
import type { IncomingMessage } from 'node:http';
import { parseJsonLossless } from '../transport/lossless-json.ts';
import { StreamUpgradeRejectedError } from './stream-errors.ts';

const MAX_BODY = 4096;
const READ_BOUND_MS = 2000;

export function readUpgradeRejection(res: IncomingMessage): Promise<StreamUpgradeRejectedError> {
  return new Promise((resolve) => {
    let body = '';
    const done = () => {
      clearTimeout(bound);
      res.removeAllListeners('data');
      resolve(new StreamUpgradeRejectedError(res.statusCode ?? 0, codeOf(body), body));
    };
    const bound = setTimeout(done, READ_BOUND_MS);
    bound.unref();
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      if (body.length < MAX_BODY) body += chunk.slice(0, MAX_BODY - body.length);
    });
    res.once('end', done);
    res.once('error', done);
    res.once('close', done);
  });
}

function codeOf(body: string): number | string | undefined {
  try {
    const parsed = parseJsonLossless(body);
    if (typeof parsed === 'object' && parsed !== null && 'code' in parsed) {
      const code = (parsed as { code: unknown }).code;
      if (typeof code === 'number') return code;
      // '-100010' style string codes stay strings; a numeric string is read as the number it names.
      if (typeof code === 'string') return /^-?\d+$/.test(code) && Number.isSafeInteger(Number(code)) ? Number(code) : code;
    }
  } catch {
    // Not JSON: the status alone says what happened.
  }
  return undefined;
}
