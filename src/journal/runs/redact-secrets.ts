/**
 * A live run's config is journaled so the run explains itself, but secrets never reach the file
 * (design rule 10: secrets come from the environment only, config/load.ts). The config schema
 * holds none today; this is the guard for what a caller hands in anyway (a composed options
 * object, a strategy's params with a webhook token). The same rules as the logger's
 * (log/logger.ts): its secret field names, matched at any depth and in any case, plus names that
 * say secret/password/token/private; its URL scrubs (signature=, listenKey=, the user-stream
 * path); and every secret value the caller knows (its API key and secret) wherever it appears.
 */
import { REDACT_PATHS, scrubText } from '../../log/logger.ts';

export const REDACTED = '[REDACTED]';

/** The logger's secret field names: its redaction paths without the `*.` prefixes. */
const SECRET_NAMES = new Set(REDACT_PATHS.filter((p) => !p.includes('*')).map((p) => p.toLowerCase()));
const SECRET_LIKE = /secret|passw|passphrase|token|private/i;

function isSecretName(key: string): boolean {
  return SECRET_NAMES.has(key.toLowerCase()) || SECRET_LIKE.test(key);
}

/**
 * A copy of `value` (JSON-like) with secret fields replaced by `[REDACTED]`, signatures and listen
 * keys scrubbed out of strings, and each of `secretValues` (empty ones ignored) replaced wherever
 * it occurs in a string or a key.
 */
export function redactSecrets(value: unknown, secretValues: readonly (string | undefined)[] = []): unknown {
  const known = secretValues.filter((s): s is string => typeof s === 'string' && s.length > 0).sort((a, b) => b.length - a.length);
  const text = (s: string): string => known.reduce((t, secret) => t.split(secret).join(REDACTED), scrubText(s));
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      // A Decimal, a Date: what JSON.stringify would write (a Decimal's own fields are not its value).
      const toJSON = (v as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') return walk((toJSON as () => unknown).call(v));
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) out[text(k)] = isSecretName(k) && inner !== null && inner !== undefined ? REDACTED : walk(inner);
      return out;
    }
    return v;
  };
  return walk(value);
}
