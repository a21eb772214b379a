/**
 * Outbound order requests, journaled before they leave (issue 20, ground rule "never send an order
 * twice": client ids are deterministic and journaled before the request leaves; deliverable 4:
 * an unknown outcome is resolved by a query, never by resending).
 *
 * A new order (place, cancelReplace) is journaled once, by its client order id: `record` returns
 * false when it is already journaled, and the caller must then not send it again (query it
 * instead); its id is used once across place and cancelReplace: the second use is refused
 * (INVALID_RECORD). A cancel may be sent again (schema 6, issue 20 left item 4): a cancel is
 * idempotent at the venue (an order already filled, cancelled or gone is refused -2011), so a
 * strategy whose cancel met an unknown outcome can cancel again. Each cancel of an order is a
 * new row, `attempt` 2, 3, ...; `record` refuses one only while an earlier attempt is still `sent`
 * (in flight, no answer yet: the venue will answer that one). `answer` and `resolve` reach the
 * attempt(s) still waiting; `get` reads the latest attempt.
 *
 * A request's state moves forward only: `sent` -> `acknowledged` | `rejected` | `unknown` (the
 * venue's answer, or none: timeout, 5xx, an unreadable 2xx), and `sent` | `unknown` -> `resolved`
 * (what a query by client order id found). `pending()` lists what is still `sent` or `unknown`:
 * after a crash, the requests that may have reached the venue without the run learning the outcome.
 *
 * Durability (db.ts pragmas: WAL, synchronous=NORMAL by default): `record` is committed to the WAL
 * file when it returns (autocommitted, or with the caller's transaction: the live venue journals a
 * new order's orders row with it, venue-commands.ts), before the request is handed to the network.
 * A killed process (SIGKILL, a crash, OOM) therefore never loses it: the OS holds the write. A
 * power cut or OS crash may lose the last transactions not yet synced to disk (WAL syncs at
 * checkpoints under NORMAL): the request may have left while its row is gone. Start-up
 * reconciliation covers that case by adopting the venue's open orders that carry this bot's
 * client-id prefix. `openJournal(file, { synchronous: 'FULL' })` syncs the WAL on every commit and
 * closes that gap, at one fsync per write.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { VenueCommand } from '../ports/venue.ts';
import { JournalError } from './errors.ts';
import { fromJson, fromJsonOrNull, toJson, toJsonOrNull } from './json-column.ts';
import { requireMoneyText } from './money-text.ts';
import { guardWrite } from './write-guard.ts';

export const REQUEST_KINDS = ['place', 'cancel', 'cancelReplace'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

export const REQUEST_STATES = ['sent', 'acknowledged', 'rejected', 'unknown', 'resolved'] as const;
export type RequestState = (typeof REQUEST_STATES)[number];

/** The answers a request can get; `resolved` comes from `resolve` (a query), not from the answer. */
export type AnswerState = 'acknowledged' | 'rejected' | 'unknown';

export interface RequestRecord {
  id: number;
  runId: string;
  /** place: the new order's; cancel: the order to cancel; cancelReplace: the new order's. */
  clientOrderId: string;
  kind: RequestKind;
  /** 1 for the first request of this (client order id, kind); a cancel sent again counts up. */
  attempt: number;
  symbol: string;
  /** cancelReplace: the order it cancels. */
  cancelClientOrderId: string | null;
  /** The full request as it left (a VenueCommand, or the wire parameters); never its signature. */
  request: unknown;
  sentAt: number;
  state: RequestState;
  answeredAt: number | null;
  /** The venue's answer body, the error (code, message), or why the outcome is unknown. */
  answer: unknown;
  resolvedAt: number | null;
  /** What the query found: e.g. `{ found: true, status: 'FILLED', orderId }` or `{ found: false }`. */
  resolution: unknown;
}

export interface NewRequest {
  runId: string;
  clientOrderId: string;
  kind: RequestKind;
  symbol: string;
  cancelClientOrderId?: string | null;
  request: unknown;
  sentAt: number;
}

export interface RequestAnswer {
  state: AnswerState;
  time: number;
  answer?: unknown;
}

type Row = {
  id: number;
  run_id: string;
  client_order_id: string;
  kind: RequestKind;
  attempt: number;
  symbol: string;
  cancel_client_order_id: string | null;
  request: string;
  sent_at: number;
  state: RequestState;
  answered_at: number | null;
  answer: string | null;
  resolved_at: number | null;
  resolution: string | null;
};

/** Money fields a request (or its `order`, for cancelReplace) may carry: decimal text only. */
const REQUEST_MONEY = ['quantity', 'quoteOrderQty', 'price', 'stopPrice', 'qty', 'icebergQty'] as const;

export class RequestStore {
  private readonly insertRequest: Statement;
  private readonly insertCancel: Statement;
  private readonly answerRequest: Statement;
  private readonly resolveRequest: Statement;
  private readonly selectOne: Statement;
  private readonly selectAttempts: Statement;
  private readonly selectById: Statement;
  private readonly selectByRun: Statement;
  private readonly selectPending: Statement;

  constructor(
    db: Database,
    private readonly file: string,
  ) {
    this.insertRequest = db.prepare(`
      INSERT INTO requests (run_id, client_order_id, kind, symbol, cancel_client_order_id, request, sent_at)
      VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (client_order_id, kind, attempt) DO NOTHING`);
    // The next attempt of a cancel, unless one is still in flight (an aggregate without GROUP BY is one row; HAVING drops it).
    this.insertCancel = db.prepare(`
      INSERT INTO requests (run_id, client_order_id, kind, attempt, symbol, cancel_client_order_id, request, sent_at)
      SELECT @runId, @cid, 'cancel', coalesce(max(attempt), 0) + 1, @symbol, @cancelCid, @request, @sentAt
      FROM requests WHERE client_order_id = @cid AND kind = 'cancel'
      HAVING coalesce(sum(state = 'sent'), 0) = 0`);
    this.answerRequest = db.prepare(
      "UPDATE requests SET state = ?, answered_at = ?, answer = ? WHERE client_order_id = ? AND kind = ? AND state = 'sent'",
    );
    this.resolveRequest = db.prepare(
      "UPDATE requests SET state = 'resolved', resolved_at = @time, resolution = @resolution WHERE client_order_id = @cid AND kind = @kind AND state IN ('sent', 'unknown') AND (@attempt IS NULL OR attempt = @attempt)",
    );
    this.selectOne = db.prepare('SELECT * FROM requests WHERE client_order_id = ? AND kind = ? ORDER BY attempt DESC LIMIT 1');
    this.selectAttempts = db.prepare('SELECT * FROM requests WHERE client_order_id = ? AND kind = ? ORDER BY attempt');
    this.selectById = db.prepare('SELECT * FROM requests WHERE id = ?');
    this.selectByRun = db.prepare('SELECT * FROM requests WHERE run_id = ? ORDER BY sent_at, id');
    this.selectPending = db.prepare(
      "SELECT * FROM requests WHERE state IN ('sent', 'unknown') AND (@runId IS NULL OR run_id = @runId) ORDER BY sent_at, id",
    );
  }

  /**
   * Journal a request before it leaves. True: written, send it. False: do not send, nothing
   * changed: a place or cancelReplace of this client order id was journaled already (by this run
   * or an earlier one), or a cancel of this order is still in flight (`sent`). A cancel after the
   * earlier ones were answered (or found unknown) is journaled as the next attempt.
   */
  record(request: NewRequest): boolean {
    const what = (): string => `${request.kind} request ${request.clientOrderId}`;
    if (!(REQUEST_KINDS as readonly string[]).includes(request.kind)) {
      throw new JournalError('INVALID_RECORD', this.file, `${what()}: kind must be one of ${REQUEST_KINDS.join(', ')}`);
    }
    if (typeof request.clientOrderId !== 'string' || request.clientOrderId === '') {
      throw new JournalError('INVALID_RECORD', this.file, `${what()}: clientOrderId must be a non-empty string`);
    }
    checkMoney(this.file, what, request.request);
    if (request.kind === 'cancel') {
      const row = { runId: request.runId, cid: request.clientOrderId, symbol: request.symbol, cancelCid: request.cancelClientOrderId ?? null, request: toJson(request.request), sentAt: request.sentAt };
      return guardWrite(this.file, what, () => this.insertCancel.run(row).changes === 1);
    }
    return guardWrite(this.file, what, () =>
      this.insertRequest.run(
        request.runId,
        request.clientOrderId,
        request.kind,
        request.symbol,
        request.cancelClientOrderId ?? null,
        toJson(request.request),
        request.sentAt,
      ).changes === 1,
    );
  }

  /** The venue's answer (or its absence: `unknown`) to the attempt in flight. False unless one was `sent` (an answer comes once). */
  answer(clientOrderId: string, kind: RequestKind, answer: RequestAnswer): boolean {
    if (answer.state !== 'acknowledged' && answer.state !== 'rejected' && answer.state !== 'unknown') {
      throw new JournalError('INVALID_RECORD', this.file, `${kind} request ${clientOrderId}: an answer is acknowledged, rejected or unknown, got ${JSON.stringify(answer.state)}`);
    }
    return guardWrite(this.file, () => `answer to ${kind} request ${clientOrderId}`, () =>
      this.answerRequest.run(answer.state, answer.time, toJsonOrNull(answer.answer), clientOrderId, kind).changes === 1,
    );
  }

  /**
   * What a query found, for every attempt still `sent` or `unknown` (the query says what became of
   * the order), or for that `attempt` only (a cancel's look-up while a later cancel is in flight).
   * False if none was.
   */
  resolve(clientOrderId: string, kind: RequestKind, time: number, resolution: unknown, attempt?: number): boolean {
    return guardWrite(this.file, () => `resolution of ${kind} request ${clientOrderId}`, () =>
      this.resolveRequest.run({ time, resolution: toJson(resolution), cid: clientOrderId, kind, attempt: attempt ?? null }).changes >= 1,
    );
  }

  /** The latest attempt of this (client order id, kind). */
  get(clientOrderId: string, kind: RequestKind): RequestRecord | undefined {
    const row = this.selectOne.get(clientOrderId, kind) as Row | undefined;
    return row && toRequest(row);
  }

  /** Every attempt of this (client order id, kind), first first (only a cancel has more than one). */
  attempts(clientOrderId: string, kind: RequestKind): RequestRecord[] {
    return (this.selectAttempts.all(clientOrderId, kind) as Row[]).map(toRequest);
  }

  byId(id: number): RequestRecord | undefined {
    const row = this.selectById.get(id) as Row | undefined;
    return row && toRequest(row);
  }

  byRun(runId: string): RequestRecord[] {
    return (this.selectByRun.all(runId) as Row[]).map(toRequest);
  }

  /** Requests still `sent` or `unknown` (of one run if given), oldest first. */
  pending(filter: { runId?: string } = {}): RequestRecord[] {
    return (this.selectPending.all({ runId: filter.runId ?? null }) as Row[]).map(toRequest);
  }
}

function checkMoney(file: string, what: () => string, request: unknown): void {
  if (!request || typeof request !== 'object') return;
  requireMoneyText(file, what, request, REQUEST_MONEY);
  const order = (request as { order?: unknown }).order;
  if (order && typeof order === 'object') requireMoneyText(file, () => `${what()} (its order)`, order, REQUEST_MONEY);
}

function toRequest(r: Row): RequestRecord {
  return {
    id: r.id,
    runId: r.run_id,
    clientOrderId: r.client_order_id,
    kind: r.kind,
    attempt: r.attempt,
    symbol: r.symbol,
    cancelClientOrderId: r.cancel_client_order_id,
    request: fromJson(r.request),
    sentAt: r.sent_at,
    state: r.state,
    answeredAt: r.answered_at,
    answer: fromJsonOrNull(r.answer),
    resolvedAt: r.resolved_at,
    resolution: fromJsonOrNull(r.resolution),
  };
}

/** The request row of a venue command (core/orders/venue-messages.ts): its kind, key and symbol. */
export function commandRequest(runId: string, command: VenueCommand, sentAt: number): NewRequest {
  if (command.kind === 'cancelReplace') {
    return { runId, kind: 'cancelReplace', clientOrderId: command.order.clientOrderId, cancelClientOrderId: command.cancelClientOrderId, symbol: command.symbol, request: command, sentAt };
  }
  return { runId, kind: command.kind, clientOrderId: command.clientOrderId, symbol: command.symbol, request: command, sentAt };
}

/**
 * For start-up reconciliation: every request journaled as sent whose outcome the journal does not
 * know (`sent`: no answer was journaled, the process may have died with it in flight; `unknown`:
 * timeout, 5xx, unreadable answer), oldest first. Each is resolved by a query by client order id.
 */
export function pendingRequests(journal: { readonly requests: RequestStore }, filter: { runId?: string } = {}): RequestRecord[] {
  return journal.requests.pending(filter);
}
