/**
 * The invoice callback receiver (issue 23 deliverable 5; spec 6.1, 4.10, 3.2): a callback is
 * checked (callback-auth.ts), read (callback-event.ts), applied once and journaled
 * (callback-store.ts), then answered (callback-server.ts). An event whose body leaves the status
 * unknown (invoice.updated: a payment, or a cancel, whose body can even equal an earlier
 * payment's) is followed by a query of that invoice, after the answer, so the journal learns the
 * status the event stands for.
 *
 * Callbacks can be missed (the receiver down, a delivery given up): at start, and whenever no
 * callback has arrived for `quietMs`, the receiver asks get-invoices
 * (reconcile-invoices.ts) and records what it missed. The check runs on an RxJS timer on the
 * injected scheduler, so tests move it on virtual time.
 */
import type { Logger } from 'pino';
import { interval, type SchedulerLike, type Subscription } from 'rxjs';
import { checkCallbackAuth } from './callback-auth.ts';
import { readCallback } from './callback-event.ts';
import { startCallbackServer, type CallbackAnswer, type CallbackRequest, type CallbackServer } from './callback-server.ts';
import type { CallbackStore } from './callback-store.ts';
import { isFinal } from './invoice-state.ts';
import { reconcileInvoices, refreshInvoice, type InvoiceReader, type ReconcileReport } from './reconcile-invoices.ts';

export const DEFAULT_QUIET_MS = 5 * 60_000;
export const DEFAULT_CHECK_EVERY_MS = 60_000;

export interface ReceiverOptions {
  readonly host: string;
  /** 0: an ephemeral port. */
  readonly port: number;
  readonly store: CallbackStore;
  /** get-invoices with the merchant credentials. */
  readonly reader: InvoiceReader;
  /** The merchant keys whose `Authorization: Token <key>` is accepted. */
  readonly merchantKeys: readonly string[];
  /** Time written to the journal. */
  readonly now: () => number;
  /** Runs the quiet check; its `now()` measures quiet spells. */
  readonly scheduler: SchedulerLike;
  /** No callback for this long: ask the venue. Default 5 min. */
  readonly quietMs?: number;
  /** How often the quiet spell is checked. Default 1 min. */
  readonly checkEveryMs?: number;
  readonly log?: Logger | undefined;
}

export interface Receiver {
  readonly url: string;
  readonly port: number;
  /** Resolves when the follow-up queries and reconciliations under way are done (tests, shutdown). */
  idle(): Promise<void>;
  /** Ask the venue now (what the start and the quiet check do). */
  reconcile(): Promise<ReconcileReport>;
  close(): Promise<void>;
}

export async function startReceiver(o: ReceiverOptions): Promise<Receiver> {
  const quietMs = o.quietMs ?? DEFAULT_QUIET_MS;
  // Quiet spells are measured on the scheduler that runs the check (virtual in tests).
  const schedulerNow = () => o.scheduler.now();
  let lastCallbackAt = schedulerNow();
  // One chain: follow-ups and reconciliations never overlap (each is idempotent, this keeps the
  // journal's transitions in the order the answers came).
  let chain: Promise<unknown> = Promise.resolve();
  let closed = false;
  const enqueue = <T>(what: string, job: () => Promise<T>): Promise<T> => {
    const run = chain.then(job);
    chain = run.catch((err: unknown) => o.log?.warn({ err, what }, 'merchant receiver: query failed; the next quiet check asks again'));
    return run;
  };

  const handle = (req: CallbackRequest): CallbackAnswer => {
    const auth = checkCallbackAuth(req.authorization, o.merchantKeys);
    if (!auth.ok) {
      o.log?.warn({ reason: auth.reason }, 'merchant receiver: callback refused');
      return { status: 401, body: { error: auth.reason } };
    }
    let raw: unknown;
    try {
      raw = JSON.parse(req.body);
    } catch {
      return { status: 400, body: { error: 'the body is not JSON (spec 6.1: a JSON event)' } };
    }
    const read = readCallback(raw);
    if (!read.ok) return { status: 400, body: { error: read.reason } };
    const ev = read.event;
    lastCallbackAt = schedulerNow();
    let result;
    try {
      result = o.store.applyEvent(ev, o.now());
    } catch (err) {
      o.log?.error({ err, event: ev.name, invoice: ev.invoiceId }, 'merchant receiver: journal write failed');
      return { status: 500, body: { error: 'not journaled; send it again' } };
    }
    o.log?.info({ event: ev.name, invoice: ev.invoiceId, amountReceived: ev.amountReceived, result: result.kind }, 'merchant receiver: callback');
    const known = result.invoice;
    if (ev.statusUnknown && !closed && (known === undefined || !isFinal(known.status))) {
      void enqueue(`invoice ${ev.invoiceId}`, () => refreshInvoice(o.reader, o.store, ev.invoiceId, o.now)).catch(() => {});
    }
    return { status: 200, body: { received: true, applied: result.kind === 'applied' } };
  };

  const server: CallbackServer = await startCallbackServer(o.host, o.port, handle);
  const reconcile = () =>
    enqueue('reconcile', async () => {
      const report = await reconcileInvoices(o.reader, o.store, o.now);
      if (report.transitions.length > 0) o.log?.info({ seen: report.seen, recovered: report.transitions.length }, 'merchant receiver: transitions found by query');
      return report;
    });
  void reconcile().catch(() => {});
  const watch: Subscription = interval(o.checkEveryMs ?? DEFAULT_CHECK_EVERY_MS, o.scheduler).subscribe(() => {
    // Asked even with no invoice known pending: one whose every callback was lost is found by
    // the range query (reconcile-invoices.ts). One query (weight 1) per quiet spell.
    if (closed || schedulerNow() - lastCallbackAt < quietMs) return;
    // Counted as heard from: the next check waits another quiet spell rather than asking each tick.
    lastCallbackAt = schedulerNow();
    void reconcile().catch(() => {});
  });

  const idle = async (): Promise<void> => {
    for (let c = chain; ; c = chain) {
      await c;
      if (c === chain) return;
    }
  };
  return {
    url: server.url,
    port: server.port,
    idle,
    reconcile,
    close: async () => {
      closed = true;
      watch.unsubscribe();
      await server.close();
      await idle();
    },
  };
}
