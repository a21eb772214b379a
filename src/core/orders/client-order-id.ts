/**
 * Deterministic client order ids (spec 4.5 newClientOrderId: unique among open orders). An id is
 * `hy` + a 7-character base36 key of (run id, strategy name) + the intent's tag + `-` + a per-tag
 * sequence in base36: `hy0k3x9zqbid-1b`. Same inputs, same id, so a backtest replays to identical
 * ids and a live order can be traced back to the run, strategy and slot that made it.
 *
 * Venue-safe by construction: only [A-Za-z0-9_-] (tags are 1..20 of those, intent-schema.ts), at
 * most 36 characters (2 + 7 + 20 + 1 + 6). The key is FNV-1a 32 bits: two runs collide with
 * odds of about one in four billion, and the sequence keeps ids within a run unique.
 */

export const CLIENT_ORDER_ID_PREFIX = 'hy';
export const MAX_CLIENT_ORDER_ID_LENGTH = 36;
const KEY_LENGTH = 7;
const MAX_SEQ_TEXT = 6;
const TAG = /^[A-Za-z0-9_-]{0,20}$/;

/** FNV-1a over the UTF-16 code units, as an unsigned 32-bit integer. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The 7-character key of a run and strategy. */
export function runKey(runId: string, strategy: string): string {
  return fnv1a32(`${runId}\u0000${strategy}`).toString(36).padStart(KEY_LENGTH, '0');
}

export interface ClientOrderIdParts {
  readonly runId: string;
  readonly strategy: string;
  /** The intent's tag; '' (or undefined) for untagged intents. */
  readonly tag?: string | undefined;
  /** 1, 2, ... per (run, strategy, tag). */
  readonly seq: number;
}

export function clientOrderId(parts: ClientOrderIdParts): string {
  const tag = parts.tag ?? '';
  if (!TAG.test(tag)) throw new RangeError(`tag ${JSON.stringify(tag)} is not 0..20 characters of A-Z a-z 0-9 _ -`);
  if (!Number.isSafeInteger(parts.seq) || parts.seq < 1) throw new RangeError(`sequence must be an integer >= 1, got ${String(parts.seq)}`);
  const seq = parts.seq.toString(36);
  if (seq.length > MAX_SEQ_TEXT) throw new RangeError(`sequence ${parts.seq} does not fit a client order id`);
  return `${CLIENT_ORDER_ID_PREFIX}${runKey(parts.runId, parts.strategy)}${tag}-${seq}`;
}

/** Key, tag and sequence of an id made here; undefined for any other id. */
export function parseClientOrderId(id: string): { key: string; tag: string; seq: number } | undefined {
  if (!id.startsWith(CLIENT_ORDER_ID_PREFIX) || id.length > MAX_CLIENT_ORDER_ID_LENGTH) return undefined;
  const dash = id.lastIndexOf('-');
  const start = CLIENT_ORDER_ID_PREFIX.length + KEY_LENGTH;
  if (dash < start) return undefined;
  const key = id.slice(CLIENT_ORDER_ID_PREFIX.length, start);
  const tag = id.slice(start, dash);
  const seqText = id.slice(dash + 1);
  if (!/^[0-9a-z]{7}$/.test(key) || !TAG.test(tag) || !/^[0-9a-z]{1,6}$/.test(seqText)) return undefined;
  return { key, tag, seq: parseInt(seqText, 36) };
}

/** Hands out ids for one run: a sequence per (strategy, tag), starting after `start` (a restart may resume). */
export class ClientOrderIds {
  /** Per (strategy, tag): the id's fixed part (undefined for a tag that is not id-safe) and the last sequence handed out. */
  private readonly seqs = new Map<string, { prefix: string | undefined; seq: number }>();
  /** The entry asked for last (a strategy's orders mostly repeat a tag). */
  private last: { strategy: string; tag: string; entry: { prefix: string | undefined; seq: number } } | undefined;
  private before: { strategy: string; tag: string; entry: { prefix: string | undefined; seq: number } } | undefined;

  /** Strategies registered, by their key. */
  private readonly keys = new Map<string, string>();

  constructor(
    readonly runId: string,
    private readonly start: (strategy: string, tag: string) => number = () => 0,
  ) {}

  /**
   * Make sure `strategy`'s ids cannot be another strategy's: two names of one run whose keys
   * collide (FNV-1a 32 bits: rare, but then every id of one could be the other's, and their orders
   * and fills would be confused) are refused with a RangeError, before either places an order.
   */
  register(strategy: string): void {
    const key = runKey(this.runId, strategy);
    const other = this.keys.get(key);
    if (other !== undefined && other !== strategy) {
      throw new RangeError(`strategies '${other}' and '${strategy}' would share client order ids in run '${this.runId}' (key ${key}): rename one`);
    }
    this.keys.set(key, strategy);
  }

  /** An id of this run's `strategy` made before (an adopted order): the tag's later ids start after `seq`, so none is handed out twice. */
  skipPast(strategy: string, tag: string, seq: number): void {
    const k = `${strategy}\u0000${tag}`;
    let entry = this.seqs.get(k);
    if (entry === undefined) {
      entry = { prefix: TAG.test(tag) ? `${CLIENT_ORDER_ID_PREFIX}${runKey(this.runId, strategy)}${tag}-` : undefined, seq: this.start(strategy, tag) };
      this.seqs.set(k, entry);
    }
    if (entry.seq < seq) entry.seq = seq;
  }

  next(strategy: string, tag: string | undefined): string {
    const t = tag ?? '';
    const hit = this.last;
    let entry = hit !== undefined && hit.strategy === strategy && hit.tag === t ? hit.entry : undefined;
    if (entry === undefined) {
      // The one before (a strategy alternating two tags, entry / exit, hits one of the two).
      const before = this.before;
      if (before !== undefined && before.strategy === strategy && before.tag === t) {
        this.before = hit;
        this.last = before;
        entry = before.entry;
      }
    }
    if (entry === undefined) {
      const k = `${strategy}\u0000${t}`;
      entry = this.seqs.get(k);
      if (entry === undefined) {
        // The key and the tag check of clientOrderId(), done once per (strategy, tag).
        entry = { prefix: TAG.test(t) ? `${CLIENT_ORDER_ID_PREFIX}${runKey(this.runId, strategy)}${t}-` : undefined, seq: this.start(strategy, t) };
        this.seqs.set(k, entry);
      }
      this.before = this.last;
      this.last = { strategy, tag: t, entry };
    }
    const seq = ++entry.seq;
    if (entry.prefix === undefined || !Number.isSafeInteger(seq) || seq < 1 || seq >= 36 ** MAX_SEQ_TEXT) return clientOrderId({ runId: this.runId, strategy, tag: t, seq });
    return entry.prefix + seq.toString(36);
  }
}
