/**
 * The default `external_transaction_id` of a new invoice (spec 4.10: unique per transaction).
 * Derived from what the invoice is (amount, currency, collectors, expiry) and the UTC day, not
 * random: running the same `merchant invoice create` again after a timeout or a crash sends the
 * same id, and the venue refuses a reused one, so a retry never makes a second invoice. The price
 * is that two identical invoices on one day need `--external-id` to tell them apart (the refusal
 * says so). The prefix shows Halyard made it.
 */
import { createHash } from 'node:crypto';

export interface InvoiceIdentity {
  readonly amount: string;
  readonly currency: string;
  readonly collectors: readonly string[];
  readonly expiresAt: string | undefined;
}

export function defaultExternalId(inv: InvoiceIdentity, nowMs: number): string {
  const day = new Date(nowMs).toISOString().slice(0, 10);
  const text = [inv.amount, inv.currency, inv.collectors.join(','), inv.expiresAt ?? '', day].join('|');
  return `hy-inv-${day.replaceAll('-', '')}-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
}
