/**
 * Parameter helpers shared by payment requests (spec 4.3) and merchant invoices (spec 4.10):
 * the `payment_url` base, collector codes (spec 2.13), `expires_at` and positive amounts.
 * Refusals are -1025 naming the parameter.
 */
import { D, type Dec } from '../../../core/money/decimal.ts';
import { venueErrors } from '../../http/error-codes.ts';
import type { HandlerContext } from '../../http/route-types.ts';
import { requestAmountProblem, timeProblem } from '../../persistence/bounds.ts';
import { futureTime } from './time-text.ts';

/** Spec 2.13 collector codes. */
export const PAYMENT_COLLECTORS: readonly string[] = ['service_peso_wallet', 'CEBL', 'MLH', 'PLWN'];

/** Default expiry of both resources (spec 4.3: 7 days; invoices follow, the sample shows 604800 s). */
export const DEFAULT_EXPIRY = '7d';

/**
 * The base of `payment_url` links: the configured public URL (the one callers sign with, notes
 * 2.3), else the Host the caller used.
 */
export function publicBase(ctx: Pick<HandlerContext, 'headers' | 'sandbox'>): string {
  const configured = ctx.sandbox.config.publicUrl;
  if (configured) return configured.replace(/\/+$/, '');
  const host = ctx.headers['host'];
  return `http://${typeof host === 'string' && host !== '' ? host : '127.0.0.1'}`;
}

/** The collectors as the JSON array text the resources carry; known codes only. */
export function collectorsText(ctx: HandlerContext, name: string): string {
  const raw = ctx.params[name];
  const list = Array.isArray(raw) ? raw.map(String) : ['service_peso_wallet'];
  if (list.length === 0) throw venueErrors.invalidParam(name, 'at least one collector is needed');
  const unknown = list.filter((c) => !PAYMENT_COLLECTORS.includes(c));
  if (unknown.length > 0) throw venueErrors.invalidParam(name, `unknown collector ${unknown.join(', ')}; use ${PAYMENT_COLLECTORS.join(', ')}`);
  return JSON.stringify(list);
}

/** `expires_at` as sandbox ms; must lie in the future, and within the stored time bound (persistence/bounds.ts). */
export function expiryOf(ctx: HandlerContext, name: string): number {
  const text = typeof ctx.params[name] === 'string' ? (ctx.params[name] as string) : DEFAULT_EXPIRY;
  const at = futureTime(text, ctx.now);
  if (at === undefined) throw venueErrors.invalidParam(name, 'not an ISO 8601 datetime of a day and time that exist (2025-03-01T12:00:00Z), nor a time delta (3d, 1w 2h)');
  if (at <= ctx.now) throw venueErrors.invalidParam(name, 'must be in the future');
  const far = timeProblem(at);
  if (far !== undefined) throw venueErrors.invalidParam(name, `the expiry ${far}`);
  return at;
}

/** An amount > 0 with at most 8 decimals, within the request bound shared with the stored records. */
export function positiveAmount(ctx: HandlerContext, name: string): Dec {
  const value = new D(String(ctx.params[name]));
  if (!value.isPositive() || value.isZero()) throw venueErrors.invalidParam(name, 'must be greater than 0');
  const problem = requestAmountProblem(value, 8);
  if (problem !== undefined) throw venueErrors.invalidParam(name, problem);
  return value;
}
