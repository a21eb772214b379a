/**
 * Spec 4.1 General (ping, time, userIp, exchangeInfo) and notes 6 check-sys-status.
 * exchangeInfo filters by `symbol` or `symbols` (a JSON array, a comma list or repeated keys,
 * case-insensitive, notes 2.1); an unknown symbol answers -1025 naming `symbol` or `symbols`, or
 * -1121 "Invalid symbol." under the legacyInvalidSymbolCode variant (http/error-codes.ts).
 */
import { toList } from '../../exchange/params/normalize.ts';
import { exchangeInfoFromConfig, findSymbolConfig } from '../config/exchange-info.ts';
import type { SandboxSymbolConfig } from '../config/schema.ts';
import { venueErrors } from '../http/error-codes.ts';
import { defineHandlers, type HandlerContext } from '../http/route-types.ts';

function selectSymbols(ctx: HandlerContext): SandboxSymbolConfig[] | undefined {
  const config = ctx.sandbox.config;
  const one = ctx.params['symbol'];
  const many = ctx.params['symbols'];
  const param = typeof one === 'string' ? 'symbol' : 'symbols';
  const names = typeof one === 'string' ? [one] : many === undefined ? undefined : toList(many);
  if (names === undefined) return undefined;
  if (names.length === 0) throw venueErrors.invalidParam('symbols', 'must list at least one symbol');
  return names.map((name) => {
    const found = findSymbolConfig(config, name.trim());
    if (!found) throw venueErrors.unknownSymbol(param, name, config.variants.legacyInvalidSymbolCode);
    return found;
  });
}

export const generalHandlers = defineHandlers({
  'general.ping': () => ({}),
  'general.time': (ctx) => ({ serverTime: ctx.now }),
  'general.userIp': (ctx) => ({ ip: ctx.ip }),
  'general.exchangeInfo': (ctx) => exchangeInfoFromConfig(ctx.sandbox.config, ctx.now, selectSymbols(ctx)),
  'general.checkSysStatus': (ctx) => {
    const status = ctx.sandbox.config.systemStatus;
    const all = (['SPOT', 'CONVERT'] as const).map((businessType) => ({ businessType, businessStatus: status[businessType] }));
    const only = ctx.params['businessType'];
    return only === undefined ? all : all.filter((s) => s.businessType === only);
  },
});
