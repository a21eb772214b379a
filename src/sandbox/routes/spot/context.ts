/**
 * What every spot handler needs: the engine (set by the exchange-core plugin), the caller's
 * account, a symbol resolved against the configuration, and engine rejections as venue errors.
 *
 * Symbols are matched case-insensitively everywhere (spec 4.4 says so for avgPrice and `symbols`;
 * accepting `btcphp` elsewhere breaks nothing); an unknown one answers -1025 naming the parameter
 * (or -1121 under the legacyInvalidSymbolCode variant) like exchangeInfo (http/error-codes.ts).
 */
import type { SpotEngine } from '../../../core/matching/index.ts';
import { findSymbolConfig } from '../../config/exchange-info.ts';
import type { SandboxSymbolConfig } from '../../config/schema.ts';
import { venueErrors } from '../../http/error-codes.ts';
import { VenueError, type HandlerContext } from '../../http/route-types.ts';

export function engineOf(ctx: HandlerContext): SpotEngine {
  const engine = ctx.sandbox.services.engine;
  if (engine === undefined) throw venueErrors.unknown();
  return engine;
}

/** The authenticated account (every spot endpoint is TRADE or USER_DATA). */
export function accountIdOf(ctx: HandlerContext): string {
  if (ctx.account === undefined) throw venueErrors.unknown();
  return ctx.account.id;
}

/** The configured symbol `name` (sent as `param`), or the unknown-symbol error. */
export function symbolConfig(ctx: HandlerContext, name: unknown, param = 'symbol'): SandboxSymbolConfig {
  const config = ctx.sandbox.config;
  const found = typeof name === 'string' ? findSymbolConfig(config, name.trim()) : undefined;
  if (found === undefined) throw venueErrors.unknownSymbol(param, String(name), config.variants.legacyInvalidSymbolCode);
  return found;
}

/** The upper-case symbol named by `param`, or undefined when it was not sent. */
export function optionalSymbol(ctx: HandlerContext, param = 'symbol'): string | undefined {
  const v = ctx.params[param];
  return v === undefined || v === '' ? undefined : symbolConfig(ctx, v, param).symbol;
}

export function requiredSymbol(ctx: HandlerContext, param = 'symbol'): string {
  return symbolConfig(ctx, ctx.params[param], param).symbol;
}

/** An engine rejection (spec 7.3 code, 7.4 / 7.5 text) as the venue answers it: HTTP 400. */
export function rejected(r: { code: number; msg: string }, data?: unknown): VenueError {
  return new VenueError(r.code, r.msg, 400, data);
}

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
export const int = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
