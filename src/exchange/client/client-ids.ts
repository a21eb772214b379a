/**
 * Client ids for writes the caller sent without one (spec 7.1: a write whose outcome is unknown is
 * resolved by querying, never by resending; spec 4.5 newClientOrderId, 4.2 withdrawOrderId, 4.3
 * client_transfer_id, 4.9 clientTranId, 4.11 external_transaction_id; limits spec 8.13).
 *
 * Without an id of its own, an order that timed out can only be found by guessing from open orders
 * and history. So every non-idempotent write with a client-id parameter (`EndpointDef.clientId`)
 * leaves with one, and an `UnknownOutcomeError` carries it (`error.request.clientId`).
 *
 * An id is deterministic per generator: `<prefix><session>-<n>`, where the prefix is configured
 * (default `hc`, "Halyard client"; 0-10 of [A-Za-z0-9_-]), the session is fixed when the client is
 * made (8 base36 digits of its start time in ms and 3 random ones, so two processes, or two clients
 * in one process, do not collide) and n counts up from 1 in base36: `hcmd3k2x1q7a9-1`, at most
 * 10 + 11 + 1 + 8 = 30 characters, which fits every token limit (the smallest is withdrawOrderId's
 * 30). `digits` parameters (legacy external_transaction_id, "a number") get the session as 10
 * digits of start time in seconds and 3 random digits, then n zero-padded to 6: 19 digits, a long.
 */
import type { ClientIdTerms } from '../endpoints/types.ts';

export const DEFAULT_CLIENT_ID_PREFIX = 'hc';
const PREFIX = /^[A-Za-z0-9_-]{0,10}$/;
const TOKEN = /^[A-Za-z0-9_-]+$/;
const SESSION = /^[0-9a-z]{1,11}$/;

export interface ClientIdOptions {
  /** Start of every generated token id (default `hc`). */
  readonly prefix?: string | undefined;
  /** Fix the session part (tests, or resuming a known session); else made from `now` and randomness. */
  readonly session?: string | undefined;
  /** Ms since the epoch when the client was made. */
  readonly now: number;
  /** [0, 1) source for the random part (default Math.random). */
  readonly random?: () => number;
}

export class ClientIdGenerator {
  readonly prefix: string;
  readonly session: string;
  private readonly digitSession: string;
  private counter = 0;

  constructor(opts: ClientIdOptions) {
    const prefix = opts.prefix ?? DEFAULT_CLIENT_ID_PREFIX;
    if (!PREFIX.test(prefix)) throw new RangeError(`client id prefix ${JSON.stringify(prefix)} must be 0 to 10 of A-Z a-z 0-9 _ -`);
    if (opts.session !== undefined && !SESSION.test(opts.session)) {
      throw new RangeError(`client id session ${JSON.stringify(opts.session)} must be 1 to 11 of 0-9 a-z`);
    }
    const random = opts.random ?? Math.random;
    const draw = (base: number, n: number): string => {
      let out = '';
      for (let i = 0; i < n; i++) out += Math.floor(random() * base).toString(base);
      return out;
    };
    const start = Math.max(0, Math.floor(opts.now));
    this.prefix = prefix;
    this.session = opts.session ?? start.toString(36).padStart(8, '0').slice(-8) + draw(36, 3);
    this.digitSession = String(Math.floor(start / 1000) % 1e10).padStart(10, '0').replace(/^0/, '1') + draw(10, 3);
  }

  /** How many ids were handed out. */
  get issued(): number {
    return this.counter;
  }

  /** The next id within `terms`. Throws a RangeError if it would not fit (never, within the limits above). */
  next(terms: ClientIdTerms): string {
    const n = ++this.counter;
    const id = terms.charset === 'digits' ? this.digitSession + String(n).padStart(6, '0') : `${this.prefix}${this.session}-${n.toString(36)}`;
    if (id.length > terms.maxLength || (terms.charset === 'token' && !TOKEN.test(id))) {
      throw new RangeError(`generated ${terms.param} ${JSON.stringify(id)} does not fit the venue's ${terms.maxLength} characters`);
    }
    return id;
  }
}
