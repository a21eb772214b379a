/**
 * The endpoint table's row type (design rule 5: venue rules and limits are data).
 *
 * Every endpoint of spec section 4 and the protocol notes' extras is one `EndpointDef`: method,
 * path, security type (spec 5.1), weight rule and pool (spec 8, notes 7), envelope kind, where
 * parameters travel, idempotency, parameter declarations and rules, the response codec and an
 * example exchange used by the contract tests and `--help`.
 */
import type { z } from 'zod';
import type { ParamRule, ParamShape, ParamsOf } from '../params/dsl.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Spec 5.1 security types, plus the merchant (5.4) and legacy v4 (notes 2.4) schemes. */
export type Security = 'NONE' | 'TRADE' | 'USER_DATA' | 'USER_STREAM' | 'MARKET_DATA' | 'MERCHANT' | 'LEGACY_V4';

/** Rate-limit pools: request weight per IP and per UID (spec 8.3), and the order-rate count (8.4). */
export type Pool = 'IP' | 'UID' | 'ORDERS';

/** `status`: the `{status, error, data}` envelope of convert and fiat (spec 1.10); `bare`: anything else. */
export type EnvelopeKind = 'bare' | 'status';

/** Where non-path parameters travel. GET is always `query`. */
export type BodyEncoding = 'query' | 'form' | 'json';

export type Area =
  | 'general'
  | 'market'
  | 'spot'
  | 'wallet'
  | 'account'
  | 'paymentRequest'
  | 'convert'
  | 'fiat'
  | 'subAccount'
  | 'merchant'
  | 'userStream'
  | 'legacyV4';

export const AREAS: readonly Area[] = [
  'general',
  'market',
  'spot',
  'wallet',
  'account',
  'paymentRequest',
  'convert',
  'fiat',
  'subAccount',
  'merchant',
  'userStream',
  'legacyV4',
];

export interface WeightCharge {
  pool: Pool;
  weight: number;
}

/** A bare number charges the IP pool. A function computes the charge from the call's parameters. */
export type WeightSpec =
  | number
  | readonly WeightCharge[]
  | ((params: Readonly<Record<string, unknown>>) => readonly WeightCharge[]);

export interface RecvWindowTerms {
  readonly required?: boolean;
  /** The largest window accepted, in ms, when below spec 5.3's 60000. */
  readonly max?: number;
}

/**
 * The parameter through which a non-idempotent write carries the caller's own id, so that a write
 * whose outcome is unknown can be found by querying (spec 7.1) instead of resent. When the caller
 * leaves it out, the client generates one within these terms (`client/client-ids.ts`).
 */
export interface ClientIdTerms {
  readonly param: string;
  /** Longest id the venue takes: spec 8.13 where it says (withdrawOrderId 30, client_transfer_id 100). */
  readonly maxLength: number;
  /** `token`: letters, digits, `-`, `_`; `digits`: a decimal number without a leading 0. */
  readonly charset: 'token' | 'digits';
}

/** `spec`: the weights and pool sizes of the spec (default); `real`: the protocol notes' variant. */
export type WeightProfile = 'spec' | 'real';

export interface EndpointDef<P extends ParamShape = ParamShape, R = unknown> {
  /** Stable name `area.method`, e.g. `spot.newOrder`; used by the CLI and logs. */
  readonly id: string;
  readonly area: Area;
  /** Method name on the area's client object, e.g. `newOrder`. */
  readonly name: string;
  readonly summary: string;
  /** Where it is specified: `4.5` or `notes 6`. */
  readonly spec: string;
  readonly method: HttpMethod;
  /** Absolute path with `{param}` / `{param?}` placeholders. */
  readonly path: string;
  readonly security: Security;
  readonly weight: WeightSpec;
  /** Protocol notes 7 variant, when it differs. */
  readonly weightReal?: WeightSpec;
  /** Counts against the order-rate limit (spec 8.4). */
  readonly countsAsOrder?: boolean;
  readonly envelope: EnvelopeKind;
  readonly encoding: BodyEncoding;
  /** Safe to resend after a timeout or 5xx. False for every write. */
  readonly idempotent: boolean;
  /** The write's optional client-id parameter, generated when the caller omits it. */
  readonly clientId?: ClientIdTerms;
  readonly params: P;
  readonly rules?: readonly ParamRule[];
  /**
   * recvWindow terms of this endpoint beyond spec 5.3's (optional, at most 60000). `required`:
   * spec 4.3 lists "recvWindow LONG req" for crypto-accounts and the transfer query; `max`: spec
   * 4.9 asset transaction history, "recvWindow must be under 60000". recvWindow is not among
   * `params`: Halyard's client sends its configured window on every signed call (capped at `max`),
   * and the sandbox checks it with the timestamp.
   */
  readonly recvWindow?: RecvWindowTerms;
  /** Decodes the whole (lossless-parsed) body; for `status` envelopes the client has already checked `status == 0`. */
  readonly response: z.ZodType<R>;
  /** A documented request and response: contract tests replay it, `--help` shows it. */
  readonly example: { readonly params: ParamsOf<P>; readonly response: unknown };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEndpoint = EndpointDef<any, any>;
export type ParamsOfEndpoint<E> = E extends EndpointDef<infer P, unknown> ? ParamsOf<P> : never;
export type ResponseOfEndpoint<E> = E extends EndpointDef<ParamShape, infer R> ? R : never;

/** Identity helper that keeps the literal parameter shape for inference. */
export function defineEndpoint<const P extends ParamShape, R>(def: EndpointDef<P, R>): EndpointDef<P, R> {
  return def;
}
