/**
 * The streams a market connection should have (protocol notes 1): what the owner asked for, in
 * order (subscribed again after every reconnect, at most 1024), which of them the venue has
 * accepted before (only those are trusted in a combined URL: one bad name refuses a whole upgrade
 * without saying which), and why a stream was refused, for a subscribe() that waits for an open.
 */
import type { StreamRequestError } from './stream-errors.ts';
import { MAX_STREAMS_PER_CONNECTION } from './stream-paths.ts';

export class WantedStreams {
  private readonly wanted = new Set<string>();
  private readonly confirmed = new Set<string>();
  private readonly refusals = new Map<string, StreamRequestError>();

  constructor(initial: readonly string[] = []) {
    this.add(initial);
  }

  get list(): string[] {
    return [...this.wanted];
  }

  /** Wanted and accepted before, in the order asked for. */
  get confirmedList(): string[] {
    return this.list.filter((s) => this.confirmed.has(s));
  }

  has(name: string): boolean {
    return this.wanted.has(name);
  }

  /** Note `names` as wanted; returns those not wanted before. Throws past the venue's cap. */
  add(names: readonly string[]): string[] {
    const fresh = [...new Set(names.map(checkStreamName))].filter((s) => !this.wanted.has(s));
    if (this.wanted.size + fresh.length > MAX_STREAMS_PER_CONNECTION) {
      throw new RangeError(`subscribe: ${this.wanted.size} + ${fresh.length} streams exceed the venue's ${MAX_STREAMS_PER_CONNECTION} per connection`);
    }
    for (const s of fresh) {
      this.wanted.add(s);
      this.refusals.delete(s);
    }
    return fresh;
  }

  remove(names: readonly string[]): string[] {
    const gone = [...new Set(names.map(checkStreamName))];
    for (const s of gone) {
      this.wanted.delete(s);
      this.confirmed.delete(s);
    }
    return gone;
  }

  /** The venue accepted these (a SUBSCRIBE reply, or a URL that opened). */
  confirm(names: readonly string[]): void {
    for (const s of names) if (this.wanted.has(s)) this.confirmed.add(s);
  }

  /** No longer trusted in a URL (an upgrade carrying them was refused). */
  distrust(names: readonly string[]): void {
    for (const s of names) this.confirmed.delete(s);
  }

  /** The venue will not take these: no longer wanted; `error` kept for whoever asked. */
  refuse(names: readonly string[], error: StreamRequestError): void {
    for (const s of names) {
      this.wanted.delete(s);
      this.confirmed.delete(s);
      this.refusals.set(s, error);
    }
  }

  /** The first refusal among `names` (and forget theirs). */
  takeRefusal(names: readonly string[]): StreamRequestError | undefined {
    const refused = names.map((s) => this.refusals.get(s)).find((e) => e !== undefined);
    for (const s of names) this.refusals.delete(s);
    return refused;
  }
}

export function checkStreamName(name: string): string {
  if (typeof name !== 'string' || name.length === 0 || /[\s/?&#]/.test(name)) throw new TypeError(`stream name ${JSON.stringify(name)}: must be a non-empty name without spaces, '/', '?', '&' or '#'`);
  return name;
}
