/**
 * Which key may call which route (spec 5.1.3-5.1.4; protocol notes 8, inferred grouping):
 *
 *   role 2 TRADE_ONLY          spot area (order*, openOrders, historyOrders, myTrades, tradeFee)
 *   role 3 CONVERT_ONLY        convert area
 *   role 4 CRYPTO_WALLET_ONLY  wallet area
 *   role 5 FIAT_ONLY           fiat area
 *   role 6 ACCOUNT_ONLY        account, transfers, sub-accounts, payment requests
 *   role 0 READ_ONLY           any GET
 *   no roles                   everything (spec 5.1.3 default)
 *
 * Ungrouped routes (check-sys-status, api-keys, legacy v4) are open to any key with a role, and
 * USER_STREAM routes to any valid key. Refusals: a read-only key (roles all 0) on any other
 * non-GET route -> -1020, the ungrouped legacy v4 POSTs included (notes 8 "Read only -> GET only":
 * a v4 sell order moves money); a role key outside its group -> -1152; a merchant key on the
 * exchange API -> -2019 (and an exchange key on merchant routes fails the merchant scheme with
 * -1150, see merchant-auth.ts). Called only after the caller has authenticated (authenticate.ts).
 */
import type { AnyEndpoint, Area } from '../../exchange/endpoints/types.ts';
import type { ApiKeyRecord, ApiKeyRole } from '../contracts.ts';
import { venueErrors } from '../http/error-codes.ts';

const ROLE_OF_AREA: Partial<Record<Area, ApiKeyRole>> = {
  spot: 2,
  convert: 3,
  wallet: 4,
  fiat: 5,
  account: 6,
  subAccount: 6,
  paymentRequest: 6,
};

/** Endpoints open to every key whatever its roles. */
const OPEN_TO_ANY_KEY = new Set(['account.apiKeys', 'general.checkSysStatus']);

/** Notes 8 labels of `GET /openapi/v1/api-keys` apiType. */
export const ROLE_LABELS: Readonly<Record<ApiKeyRole, string>> = {
  0: 'Read only',
  2: 'Enable Spot',
  3: 'Enable Convert',
  4: 'Enable Crypto Wallet',
  5: 'Enable Fiat',
  6: 'Enable Account',
};

export function requiredRole(def: AnyEndpoint): ApiKeyRole | undefined {
  if (OPEN_TO_ANY_KEY.has(def.id)) return undefined;
  return ROLE_OF_AREA[def.area];
}

/** Throws the venue's refusal when `key` may not call `def`. */
export function checkPermission(key: ApiKeyRecord, def: AnyEndpoint): void {
  if (key.merchant) throw venueErrors.wrongKeyType('a merchant key cannot call the exchange API');
  if (def.security === 'USER_STREAM' || key.roles.length === 0) return;
  if (def.method !== 'GET' && key.roles.every((r) => r === 0)) throw venueErrors.readOnly();
  const role = requiredRole(def);
  if (role === undefined || key.roles.includes(role)) return;
  if (def.method === 'GET' && key.roles.includes(0)) return;
  throw venueErrors.noPermission();
}
