/**
 * The endpoint table: every endpoint of spec section 4 (4.1-4.11) and the protocol notes' extras,
 * grouped by area. The client, the sandbox, the CLI and the docs all read this one table.
 */
import { accountEndpoints } from './areas/account.ts';
import { convertEndpoints } from './areas/convert.ts';
import { fiatEndpoints } from './areas/fiat.ts';
import { generalEndpoints } from './areas/general.ts';
import { legacyV4Endpoints } from './areas/legacy-v4.ts';
import { marketEndpoints } from './areas/market.ts';
import { merchantEndpoints } from './areas/merchant.ts';
import { paymentRequestEndpoints } from './areas/payment-request.ts';
import { spotEndpoints } from './areas/spot.ts';
import { subAccountEndpoints } from './areas/sub-account.ts';
import { userStreamEndpoints } from './areas/user-stream.ts';
import { walletEndpoints } from './areas/wallet.ts';
import type { AnyEndpoint, Area } from './types.ts';

export const endpointsByArea = {
  general: generalEndpoints,
  market: marketEndpoints,
  spot: spotEndpoints,
  wallet: walletEndpoints,
  account: accountEndpoints,
  paymentRequest: paymentRequestEndpoints,
  convert: convertEndpoints,
  fiat: fiatEndpoints,
  subAccount: subAccountEndpoints,
  merchant: merchantEndpoints,
  userStream: userStreamEndpoints,
  legacyV4: legacyV4Endpoints,
} as const satisfies Record<Area, Record<string, AnyEndpoint>>;

export type EndpointsByArea = typeof endpointsByArea;

/** Every endpoint, in area order. */
export const allEndpoints: readonly AnyEndpoint[] = Object.values(endpointsByArea).flatMap((area) => Object.values(area) as AnyEndpoint[]);

const byId = new Map(allEndpoints.map((e) => [e.id, e]));
const byRoute = new Map(allEndpoints.map((e) => [routeKey(e.method, e.path), e]));

export function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

/** Look an endpoint up by id (`spot.newOrder`), case-insensitively. */
export function findEndpoint(id: string): AnyEndpoint | undefined {
  return byId.get(id) ?? allEndpoints.find((e) => e.id.toLowerCase() === id.toLowerCase());
}

/** Look an endpoint up by method and path template (`POST /openapi/v1/order`). */
export function findRoute(method: string, pathTemplate: string): AnyEndpoint | undefined {
  return byRoute.get(routeKey(method, pathTemplate));
}

export * from './types.ts';
