/**
 * The typed exchange client: one method per endpoint, grouped by area
 * (`client.spot.newOrder({...})`, `client.market.depth({ symbol })`), derived from the endpoint
 * table so the table stays the single source of truth for paths, weights and parameters.
 */
import { endpointsByArea, type EndpointsByArea } from '../endpoints/index.ts';
import type { AnyEndpoint, ParamsOfEndpoint, ResponseOfEndpoint } from '../endpoints/types.ts';
import type { ExchangeError } from '../errors/errors.ts';
import { reconcileOrder, type OrderReconciliation, type ReconcileOptions } from './reconcile.ts';
import { reconcileWrite, type WriteReconciliation } from './reconcile-writes.ts';
import type { CallOptions, RestClient } from './rest-client.ts';

/** Parameters are optional when the endpoint has no mandatory ones. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends P` is the test for "no required keys"
export type EndpointMethod<E extends AnyEndpoint> = {} extends ParamsOfEndpoint<E>
  ? (params?: ParamsOfEndpoint<E>, options?: CallOptions) => Promise<ResponseOfEndpoint<E>>
  : (params: ParamsOfEndpoint<E>, options?: CallOptions) => Promise<ResponseOfEndpoint<E>>;

export type AreaClient<A extends Record<string, AnyEndpoint>> = { readonly [K in keyof A]: EndpointMethod<A[K]> };

export type ExchangeClient = { readonly [A in keyof EndpointsByArea]: AreaClient<EndpointsByArea[A]> } & {
  /** The pipeline underneath: `rest.call(endpoint, params)` for any table row. */
  readonly rest: RestClient;
  /**
   * After an `UnknownOutcomeError` from `spot.newOrder` / `spot.cancelReplace`: look the order up by
   * the client id the request carried (generated when the caller gave none). Found or not-found;
   * never resends. See `reconcile.ts`.
   */
  readonly reconcileOrder: (error: ExchangeError, options?: ReconcileOptions) => Promise<OrderReconciliation>;
  /**
   * The same for a money movement (a withdrawal, a transfer, a sub-account transfer, a fund
   * collection): looked up in its history by its client id; never resent. See `reconcile-writes.ts`.
   */
  readonly reconcileWrite: (error: ExchangeError, options?: ReconcileOptions) => Promise<WriteReconciliation>;
};

export function createExchangeClient(rest: RestClient): ExchangeClient {
  const client: Record<string, unknown> = {
    rest,
    reconcileOrder: (error: ExchangeError, options?: ReconcileOptions) => reconcileOrder(rest, error, options),
    reconcileWrite: (error: ExchangeError, options?: ReconcileOptions) => reconcileWrite(rest, error, options),
  };
  for (const [area, endpoints] of Object.entries(endpointsByArea)) {
    const methods: Record<string, unknown> = {};
    for (const [name, def] of Object.entries(endpoints as Record<string, AnyEndpoint>)) {
      methods[name] = (params: Record<string, unknown> = {}, options?: CallOptions) => rest.call(def, params, options);
    }
    client[area] = Object.freeze(methods);
  }
  return Object.freeze(client) as ExchangeClient;
}
