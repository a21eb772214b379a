/**
 * Fiat order history (spec 4.8, v1 deprecated and v2): filters on internalOrderId,
 * externalOrderId (v2), transactionType, channel, subject, status and currency; creation time
 * bounded by startDate / endDate (ISO 8601 or a delta back from now), or by startTime / endTime
 * (ms) only when both dates are empty. Oldest first (spec 1.2); `pageNum` / `pageSize` are
 * strings (defaults 1 and 10); `total` counts every match.
 */
import { venueErrors } from '../../http/error-codes.ts';
import { okEnvelope, type HandlerContext } from '../../http/route-types.ts';
import { pastTime } from '../payment-request/time-text.ts';
import type { FiatDesk, FiatOrderRecord } from './fiat-desk.ts';
import { orderView } from './views.ts';

function bound(ctx: HandlerContext, name: 'startDate' | 'endDate'): number | undefined {
  const text = ctx.params[name];
  if (typeof text !== 'string' || text === '') return undefined;
  const t = pastTime(text, ctx.now);
  if (t === undefined) throw venueErrors.invalidParam(name, 'not an ISO 8601 datetime of a day and time that exist (2025-03-01T12:00:00Z), nor a time delta (3d, 1w 2h)');
  return t;
}

export function fiatHistory(ctx: HandlerContext, desk: FiatDesk, accountId: string): Record<string, unknown> {
  const p = ctx.params;
  const text = (name: string): string | undefined => (typeof p[name] === 'string' && p[name] !== '' ? (p[name] as string) : undefined);
  let from = bound(ctx, 'startDate');
  let to = bound(ctx, 'endDate');
  if (from === undefined && to === undefined) {
    from = typeof p['startTime'] === 'number' ? p['startTime'] : undefined;
    to = typeof p['endTime'] === 'number' ? p['endTime'] : undefined;
  }
  const checks: ((o: FiatOrderRecord) => boolean)[] = [];
  const eq = (name: string, get: (o: FiatOrderRecord) => string, fold = false) => {
    const want = text(name);
    if (want !== undefined) checks.push((o) => (fold ? get(o).toUpperCase() === want.toUpperCase() : get(o) === want));
  };
  eq('internalOrderId', (o) => o.internalOrderId);
  if (ctx.def.id === 'fiat.historyV2') eq('externalOrderId', (o) => o.externalOrderId);
  eq('transactionType', () => '-1');
  eq('transactionChannel', (o) => o.channel);
  eq('transactionSubject', (o) => o.subject.subject, true);
  eq('status', (o) => o.status);
  eq('fiatCurrency', () => 'PHP', true);
  const lo = from;
  const hi = to;
  if (lo !== undefined) checks.push((o) => o.createdAt >= lo);
  if (hi !== undefined) checks.push((o) => o.createdAt <= hi);
  const matching = desk.ordersOf(accountId).filter((o) => checks.every((c) => c(o)));
  const pageNum = Number(text('pageNum') ?? '1');
  const pageSize = Number(text('pageSize') ?? '10');
  return okEnvelope(matching.slice((pageNum - 1) * pageSize, pageNum * pageSize).map(orderView), { total: matching.length });
}
