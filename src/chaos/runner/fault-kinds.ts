/**
 * The fault kinds of a chaos run (issue 22 deliverable 1: "5xx before and after commit, timeouts
 * after commit, dropped and stalled WebSockets, listen-key expiry, 429 and 418, clock skew that
 * earns -1021, slow answers") and the `--faults` option that picks them and their rates.
 *
 * A rate is per intent: `error-after=0.02` injects about one error-after per 50 intents. How each
 * kind is made (injector.ts): the sandbox's fault registry through the admin API (POST /faults, see
 * src/sandbox/faults/fault-registry.ts), the listen-key route (POST /listen-keys/expire) and the
 * stream server's hooks (dropAll, setSilent).
 */

export const FAULT_KINDS = [
  /** 5xx before the handler runs: nothing committed (fault `error-before`). */
  'error-before',
  /** The handler runs, then a 5xx: the order exists, the bot was told it failed (fault `error-after`). */
  'error-after',
  /** The answer is held past the client's timeout, then the handler runs: committed after the bot gave up (fault `delay`). */
  'timeout',
  /** No answer; the socket is cut after a while: the bot never learns (fault `hang`, before the handler). */
  'hang',
  /** Every WebSocket terminated at once (stream server `dropAll`). */
  'drop',
  /** The streams say nothing for a while, pongs included (stream server `setSilent`). */
  'stall',
  /** The bot's listen key expired at the venue (POST /listen-keys/expire): its user stream closes. */
  'listen-key',
  /** 429 with Retry-After (fault `rate-limit`). */
  '429',
  /** 418 with Retry-After (fault `ban`): injected, so not a ban the bot earned (checks: injectedBanKinds). */
  '418',
  /** Timestamps checked as if the venue's clock were off by seconds (fault `clock-skew`): -1021. */
  'clock-skew',
  /** An answer delayed, within the client's timeout (fault `delay`). */
  'slow',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Default rates per intent: every kind, a few hundred faults in 10,000 intents. */
export const DEFAULT_RATES: Readonly<Record<FaultKind, number>> = {
  'error-before': 0.004,
  'error-after': 0.004,
  timeout: 0.001,
  hang: 0.002,
  drop: 0.002,
  stall: 0.001,
  'listen-key': 0.001,
  '429': 0.003,
  '418': 0.001,
  'clock-skew': 0.002,
  slow: 0.004,
};

export type FaultRates = Partial<Record<FaultKind, number>>;

const isKind = (k: string): k is FaultKind => (FAULT_KINDS as readonly string[]).includes(k);

/**
 * `--faults`: `all` (the defaults), `none`, or `kind=rate,...` (only those kinds); `kind` alone takes
 * its default rate. Throws naming the part and the reason.
 */
export function parseFaults(text: string): FaultRates {
  const t = text.trim();
  if (t === '' || t === 'all') return { ...DEFAULT_RATES };
  if (t === 'none') return {};
  const out: FaultRates = {};
  for (const part of t.split(',')) {
    const [name = '', value, ...rest] = part.trim().split('=');
    if (!isKind(name)) throw new RangeError(`--faults: '${part}': unknown fault kind '${name}' (kinds: ${FAULT_KINDS.join(', ')}, or all / none)`);
    if (rest.length > 0) throw new RangeError(`--faults: '${part}': one '=' per kind`);
    const rate = value === undefined ? DEFAULT_RATES[name] : Number(value);
    if (!Number.isFinite(rate) || rate < 0 || rate > 1) throw new RangeError(`--faults: '${part}': the rate must be a number from 0 to 1 (per intent), got '${value ?? ''}'`);
    out[name] = rate;
  }
  return out;
}

export function formatRates(rates: FaultRates): string {
  return FAULT_KINDS.filter((k) => rates[k] !== undefined).map((k) => `${k}=${rates[k]}`).join(',');
}
