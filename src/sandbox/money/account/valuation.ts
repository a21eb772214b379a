/**
 * Peso value of an amount, for the account's cash-in / cash-out / withdraw limits (spec 2.7; the
 * limits are peso amounts). Price: the last trade of `<ASSET>PHP`, else `<ASSET>USDT` x `USDTPHP`,
 * else a fixed reference price below (a fresh sandbox has no trades yet). An asset with no price
 * at all is worth 0, so it never hits a limit.
 */
import { D, dec, toWire, type Dec } from '../../../core/money/decimal.ts';
import type { SandboxServices } from '../../http/route-types.ts';
import { REFERENCE_PHP_PRICES } from '../../config/defaults.ts';

/** The account's fiat token (spec 2.7 `token`) and the unit of its limits. */
export const LIMIT_TOKEN = 'PHP';

/** Rough peso prices used only before the market has traded (sandbox constants). */
export { REFERENCE_PHP_PRICES };

function lastPrice(services: SandboxServices, symbol: string): Dec | undefined {
  const md = services.marketData;
  if (!md) return undefined;
  const p = dec(md.priceTicker(symbol).price);
  return p.gt(0) ? p : undefined;
}

export function phpPrice(services: SandboxServices, asset: string): Dec {
  if (asset === LIMIT_TOKEN) return new D(1);
  const direct = lastPrice(services, `${asset}${LIMIT_TOKEN}`);
  if (direct) return direct;
  const viaUsdt = lastPrice(services, `${asset}USDT`);
  const usdt = lastPrice(services, `USDT${LIMIT_TOKEN}`) ?? dec(REFERENCE_PHP_PRICES['USDT'] ?? '0');
  if (viaUsdt) return viaUsdt.times(usdt);
  return dec(REFERENCE_PHP_PRICES[asset] ?? '0');
}

export function phpValue(services: SandboxServices, asset: string, amount: string): string {
  return toWire(phpPrice(services, asset).times(dec(amount)));
}
