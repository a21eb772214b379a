/**
 * Invoice callbacks (spec 6.1): HTTP POST of JSON `{event: {name, data: {id, currency, amount,
 * amount_received, external_transaction_id}}}` (all data values strings) with the header
 * `Authorization: Token <merchant api key>` to the configured `merchant.callbackUrl`.
 *
 * Delivery never blocks the request that caused it: `enqueue` returns at once. Events of one
 * invoice are delivered in order (each waits for the previous to succeed or give up); invoices
 * are independent. A delivery succeeds on any 2xx; otherwise (other status, network error,
 * `timeoutMs` without an answer) it is retried after each of `retryDelaysMs` in turn (wall time,
 * default 1, 2, 4, 8, 16, 32 s: 7 attempts), then marked failed. Spec 6.1 leaves retries, ordering
 * and guarantees unshown; this is the sandbox's choice. Without a callback URL events are recorded
 * as skipped. Every event is kept in `records()` (admin `GET /invoices/callbacks`).
 * The kept records are a persistent part (`merchant.callbacks`): with `--state` they survive a
 * restart; one still pending then is not sent again and reads `failed` (interrupted).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { Logger } from 'pino';
import { request } from 'undici';
import { refill, type Persistent } from '../../persistence/persistent-parts.ts';
import { zAmount } from '../../persistence/schema-kit.ts';

export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000, 16_000, 32_000];
export const DEFAULT_CALLBACK_TIMEOUT_MS = 5_000;

export type InvoiceEventName = 'invoice.created' | 'invoice.updated' | 'invoice.fully_paid' | 'invoice.payment_reference_number_generated';

export interface InvoiceEventData {
  id: string;
  currency: string;
  amount: string;
  amount_received: string;
  external_transaction_id: string;
}

export interface CallbackRecord {
  seq: number;
  event: InvoiceEventName;
  invoiceId: string;
  url: string | undefined;
  status: 'pending' | 'delivered' | 'failed' | 'skipped';
  attempts: number;
  lastHttpStatus: number | undefined;
  lastError: string | undefined;
  body: { event: { name: InvoiceEventName; data: InvoiceEventData } };
}

export interface CallbackOptions {
  /** Read per event, so a changed config applies to later events. */
  url: () => string | undefined;
  retryDelaysMs?: readonly number[] | undefined;
  timeoutMs?: number | undefined;
  log: Logger;
}

/** Records kept for inspection (oldest dropped beyond this). */
const MAX_RECORDS = 1000;

export interface CallbacksState {
  records: CallbackRecord[];
}

const eventName = z.enum(['invoice.created', 'invoice.updated', 'invoice.fully_paid', 'invoice.payment_reference_number_generated']);

export const CALLBACKS_STATE = z.object({
  records: z.array(
    z.object({
      seq: z.number().int(),
      event: eventName,
      invoiceId: z.string(),
      url: z.string().optional(),
      status: z.enum(['pending', 'delivered', 'failed', 'skipped']),
      attempts: z.number().int().nonnegative(),
      lastHttpStatus: z.number().int().optional(),
      lastError: z.string().optional(),
      body: z.object({
        event: z.object({
          name: eventName,
          data: z.object({ id: z.string(), currency: z.string(), amount: zAmount, amount_received: zAmount, external_transaction_id: z.string() }),
        }),
      }),
    }),
  ),
  // Optional fields come back absent rather than undefined (JSON); both read the same.
}) as z.ZodType<CallbacksState>;

export class CallbackDispatcher implements Persistent<CallbacksState> {
  private readonly chains = new Map<string, Promise<void>>();
  private readonly kept: CallbackRecord[] = [];
  private readonly abort = new AbortController();
  private seq = 0;

  constructor(private readonly opts: CallbackOptions) {}

  enqueue(merchantKey: string, name: InvoiceEventName, data: InvoiceEventData): CallbackRecord {
    const url = this.opts.url();
    const record: CallbackRecord = {
      seq: ++this.seq,
      event: name,
      invoiceId: data.id,
      url,
      status: url === undefined ? 'skipped' : 'pending',
      attempts: 0,
      lastHttpStatus: undefined,
      lastError: undefined,
      body: { event: { name, data } },
    };
    this.kept.push(record);
    if (this.kept.length > MAX_RECORDS) this.kept.shift();
    if (url === undefined || this.abort.signal.aborted) return record;
    const previous = this.chains.get(data.id) ?? Promise.resolve();
    const next = previous
      .then(() => this.deliver(record, url, merchantKey))
      .catch((err: unknown) => this.opts.log.error({ err }, 'invoice callback delivery crashed'));
    this.chains.set(data.id, next);
    void next.finally(() => {
      if (this.chains.get(data.id) === next) this.chains.delete(data.id);
    });
    return record;
  }

  records(): readonly CallbackRecord[] {
    return this.kept;
  }

  dumpState(): CallbacksState {
    return { records: this.kept.map((r) => structuredClone(r)) };
  }

  /** Deliveries in flight at the restart are not retried: they read failed. */
  restoreState(data: CallbacksState): void {
    const records = data.records.slice(-MAX_RECORDS).map((r) => (r.status === 'pending' ? { ...r, status: 'failed' as const, lastError: 'interrupted by a sandbox restart' } : r));
    refill(this.kept, records);
    this.seq = records.reduce((m, r) => Math.max(m, r.seq), this.seq);
  }

  /** Resolves when every queued delivery has succeeded or given up (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
  }

  close(): void {
    this.abort.abort();
  }

  private async deliver(record: CallbackRecord, url: string, merchantKey: string): Promise<void> {
    const delays = this.opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    const timeout = this.opts.timeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS;
    const payload = JSON.stringify(record.body);
    for (let attempt = 0; ; attempt++) {
      if (this.abort.signal.aborted) break;
      record.attempts = attempt + 1;
      try {
        const res = await request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Token ${merchantKey}` },
          body: payload,
          headersTimeout: timeout,
          bodyTimeout: timeout,
          signal: this.abort.signal,
        });
        await res.body.dump();
        record.lastHttpStatus = res.statusCode;
        record.lastError = undefined;
        if (res.statusCode >= 200 && res.statusCode < 300) {
          record.status = 'delivered';
          return;
        }
      } catch (err) {
        record.lastError = err instanceof Error ? err.message : String(err);
      }
      const delay = delays[attempt];
      if (delay === undefined) break;
      this.opts.log.debug({ event: record.event, invoice: record.invoiceId, attempt: record.attempts, delay }, 'invoice callback failed; retrying');
      try {
        await sleep(delay, undefined, { signal: this.abort.signal });
      } catch {
        break;
      }
    }
    record.status = 'failed';
    this.opts.log.warn({ event: record.event, invoice: record.invoiceId, attempts: record.attempts, error: record.lastError, status: record.lastHttpStatus }, 'invoice callback gave up');
  }
}
