/**
 * The handler contract of the sandbox's HTTP framework. A route handler serves one endpoint id of
 * the endpoint table (`src/exchange/endpoints`); the pipeline has already found the route, charged
 * the rate limits, authenticated the caller per the endpoint's security type and checked the
 * parameters against the table's declarations and rules by the time it runs.
 *
 * Adding a handler (other sandbox areas do exactly this):
 *
 *   // src/sandbox/routes/spot.ts
 *   export const spotHandlers = defineHandlers({
 *     'spot.tradeFee': (ctx) => ctx.sandbox.config.symbols.map(...),   // body, serialised by stringifyWire
 *     'spot.newOrder': async (ctx) => { ...; throw new VenueError(-2010, 'Market is closed.'); },
 *   });
 *   // then either list it in server.ts builtInPlugins() (a plugin with `handlers`), or at runtime:
 *   handle.registerHandlers(spotHandlers);
 *
 * A handler returns the response body (ids as bigint become bare JSON numbers), or a WireReply
 * for a custom status/headers; it throws VenueError (`{code,msg}`, HTTP 400 by default) or
 * EnvelopeFailure (status-envelope endpoints: HTTP 200 `{status, error, data:null, params:null}`).
 * Any other throw is an internal error: HTTP 500 -1000, logged. `okEnvelope(data)` builds the
 * success envelope of convert and fiat endpoints.
 *
 * Shared state other areas need (engine, market-data store, ...) goes in `sandbox.services`:
 * extend the `SandboxServices` interface by declaration merging from your own module,
 *   declare module '../http/route-types.ts' { interface SandboxServices { engine?: SandboxEngine } }
 * and set it from your plugin's `setup`.
 */
import type { Logger } from 'pino';
import type { AnyEndpoint } from '../../exchange/endpoints/types.ts';
import type { BalancePort } from '../accounts/balance-port.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import type { SandboxClock } from '../clock/sandbox-clock.ts';
import type { SandboxConfig } from '../config/schema.ts';
import type { ApiKeyRecord, SandboxAccount } from '../contracts.ts';
import type { FaultRegistry } from '../faults/fault-registry.ts';
import type { ListenKeys } from '../listen-keys.ts';
import type { SandboxRateLimiter } from '../rate-limit/rate-limiter.ts';

export { VenueError, EnvelopeFailure, WireReply } from './venue-error.ts';
export { venueErrors } from './error-codes.ts';

/** Open record of services; extend by declaration merging (see header). */
export interface SandboxServices {
  /** The engine's balances (or a test fake); absent until a plugin provides it. */
  balances?: BalancePort;
}

/** The shared state of one running sandbox. */
export interface SandboxState {
  readonly config: SandboxConfig;
  readonly accounts: AccountRegistry;
  readonly clock: SandboxClock;
  readonly faults: FaultRegistry;
  readonly listenKeys: ListenKeys;
  readonly rateLimiter: SandboxRateLimiter;
  readonly services: SandboxServices;
  readonly log: Logger;
}

export type HeaderMap = Readonly<Record<string, string | string[] | undefined>>;

export interface HandlerContext {
  readonly def: AnyEndpoint;
  /** Values normalised by checkParams: ids/decimals as strings, integers as numbers, lists as arrays. Undeclared parameters pass through as sent; `signature`, `timestamp` and `recvWindow` are removed. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The authenticated account (every secured security type); undefined for NONE. */
  readonly account: SandboxAccount | undefined;
  readonly apiKey: ApiKeyRecord | undefined;
  /** The caller's IP as the sandbox sees it (the `userIp` answer). */
  readonly ip: string;
  /** Sandbox clock, ms. */
  readonly now: number;
  readonly rawQuery: string;
  readonly rawBody: string;
  /** Lower-case header names. */
  readonly headers: HeaderMap;
  readonly sandbox: SandboxState;
}

export type Handler = (ctx: HandlerContext) => unknown;

export type HandlerMap = Readonly<Record<string, Handler>>;

/** Identity helper that types a handler map. */
export function defineHandlers<const M extends HandlerMap>(map: M): M {
  return map;
}

/** The success envelope of convert and fiat (spec 1.10, notes 9): `{status: 0, error: 'OK', data, params: null, ...extra}`. */
export function okEnvelope(data: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { status: 0, error: 'OK', data, params: null, ...extra };
}
