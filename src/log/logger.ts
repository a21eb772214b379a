/**
 * The pino root logger. Secrets never reach a log line: API keys, secrets, signatures and listen
 * keys are redacted by field name, and scrubbed out of URLs and free text (a signed URL carries
 * `signature=<hex>`, a user-stream URL carries the listen key as its last segment).
 *
 * Written synchronously: without a destination of its own, the logger writes each line to stderr
 * (fd 2) before the call returns, so the last lines before a crash, an uncaught error or a
 * SIGKILL are on stderr (or in the file it is redirected to), as Python logging's are for
 * Freqtrade/Hummingbot: for an operator they are the record of what happened just before it.
 * pino's default (an asynchronous SonicBoom) held them in memory until its next write and lost
 * them at a SIGKILL (test: src/log/durable.test.ts). It costs a write(2) per line: measured
 * +2 µs of CPU a line to a file, +4-8 µs to a pipe, next to this logger's own ~55 µs (redaction
 * and scrubbing), so every command keeps this default, batch ones too (they log a few lines). A
 * reader that stops reading blocks the process at its next line, as it would Python's.
 */
import { pino, type Logger, type LoggerOptions } from 'pino';

const SECRET_FIELDS = [
  'apiKey',
  'apiSecret',
  'secret',
  'secretKey',
  'signature',
  'listenKey',
  'merchantKey',
  'merchantSecret',
  'password',
  'authorization',
  'x-service-apikey',
  'X-SERVICE-APIKEY',
  'x-merchant-key',
  'X-Merchant-Key',
  'x-merchant-sign',
  'X-Merchant-Sign',
  'access-key',
  'ACCESS-KEY',
  'access-signature',
  'ACCESS-SIGNATURE',
];

/** pino redaction paths: each secret field at the top level and up to two levels down. */
export const REDACT_PATHS = SECRET_FIELDS.flatMap((f) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(f) ? f : `["${f}"]`;
  const join = (prefix: string) => (key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`);
  return [key.startsWith('[') ? key.slice(2, -2) : key, join('*'), join('*.*')];
});

const SCRUBS: [RegExp, string][] = [
  [/(signature=)[0-9a-fA-F]+/g, '$1[REDACTED]'],
  [/(listenKey=)[^&\s"]+/g, '$1[REDACTED]'],
  [/(\/openapi\/ws\/)[^/?\s"]+/g, '$1[REDACTED]'],
];

/** Remove signatures and listen keys from a URL or message. */
export function scrubText(text: string): string {
  return SCRUBS.reduce((t, [re, to]) => t.replace(re, to), text);
}

/** stderr, each line written before the log call returns (not buffered: see the header). */
export function stderrDestination(): pino.DestinationStream {
  return pino.destination({ dest: 2, sync: true });
}

export function createLogger(options: LoggerOptions = {}, destination?: pino.DestinationStream): Logger {
  const base: LoggerOptions = {
    level: process.env['HALYARD_LOG_LEVEL'] ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    hooks: {
      logMethod(args, method) {
        const scrubbed = args.map((a) => (typeof a === 'string' ? scrubText(a) : scrubObjectUrls(a)));
        return method.apply(this, scrubbed as Parameters<typeof method>);
      },
    },
    ...options,
  };
  return pino(base, destination ?? stderrDestination());
}

function scrubObjectUrls(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = typeof v === 'string' ? scrubText(v) : v;
  return out;
}
