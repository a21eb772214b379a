/**
 * The request pipeline every exchange route goes through (spec 1, 5, 7, 8; protocol notes 2, 7):
 *
 *   route (404/405) -> injected faults -> raw parameters (400 on bad encoding/JSON) ->
 *   authentication per security type -> rate limits (429/418, 429 -1015; the UID pool only when
 *   authenticated, else the IP's) -> -1025 on a repeated scalar key -> the authentication's error,
 *   if any -> checkParams (-1105/-1025/-1106/-1107/-1108), then the value bounds (value-bounds.ts: amounts
 *   the state file can hold, text lengths) -> handler (501 while none is registered) ->
 *   error-after faults -> stringifyWire.
 *
 * Signatures are verified over the raw query and raw body exactly as received (the server keeps
 * the body as text for every content type). Nothing here throws past the pipeline: every error
 * becomes the venue's `{code, msg}` via send.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { chargesFor } from '../../exchange/rate/weights.ts';
import type { AnyEndpoint, WeightCharge } from '../../exchange/endpoints/types.ts';
import { checkParams } from '../../exchange/params/check-params.ts';
import { authenticate, claimedUid, type Authenticated } from '../auth/authenticate.ts';
import { header, normaliseIp } from '../auth/headers.ts';
import { applyPreFaults, type HangTracker } from './apply-faults.ts';
import { venueErrors } from './error-codes.ts';
import type { HandlerRegistry } from './handler-registry.ts';
import { violationToError } from './param-errors.ts';
import { bodyKindOf, collectParams } from './raw-params.ts';
import type { EndpointRouter } from './router.ts';
import type { HandlerContext, SandboxState } from './route-types.ts';
import { faultBody, sendError, sendResult, sendWire } from './send.ts';
import { checkRawValues, checkValueBounds } from './value-bounds.ts';
import { VenueError } from './venue-error.ts';

export interface PipelineDeps {
  state: SandboxState;
  handlers: HandlerRegistry;
  router: EndpointRouter;
  hangs: HangTracker;
  /** Wall-time sleep for `delay` faults. */
  sleep: (ms: number) => Promise<void>;
}

const SIGNED = new Set(['TRADE', 'USER_DATA', 'MERCHANT', 'LEGACY_V4']);
const AUTH_PARAMS = ['signature', 'timestamp', 'recvWindow'];

export function splitUrl(rawUrl: string): { path: string; rawQuery: string } {
  const q = rawUrl.indexOf('?');
  return q < 0 ? { path: rawUrl, rawQuery: '' } : { path: rawUrl.slice(0, q), rawQuery: rawUrl.slice(q + 1) };
}

export function createPipeline(deps: PipelineDeps) {
  const { state } = deps;
  return async function handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const { path, rawQuery } = splitUrl(request.raw.url ?? '/');
    let def: AnyEndpoint | undefined;
    try {
      const match = route(deps, request.method, path);
      def = match.def;
      if (await applyPreFaults(state.faults, def.id, reply, deps)) return reply;

      const rawBody = typeof request.body === 'string' ? request.body : '';
      const headers = request.headers;
      const ip = normaliseIp(request.ip);
      const bodyKind = bodyKindOf(rawBody, header(headers, 'content-type'));
      const repeated = new Set<string>();
      const values = collectParams({ rawQuery, rawBody, bodyKind, pathParams: match.pathParams, repeated });

      // Authenticate first, then charge the rate limits: a request whose key, signature or time
      // does not hold is charged to its IP only, so holding an API key alone cannot spend that
      // account's UID pool. Either way the weight is charged before the answer, and a request
      // told to back off gets the 429/418 whatever its authentication said.
      const now = state.clock.now();
      const skew = SIGNED.has(def.security) ? state.faults.take(def.id, ['clock-skew']).reduce((s, f) => s + (f.skewMs ?? 0), 0) : 0;
      let auth: Authenticated | undefined;
      let authError: unknown;
      try {
        auth = authenticate({ def, method: request.method, path, rawQuery, rawBody, bodyKind, headers, values, ip, now: now + skew }, state.accounts, state.config);
      } catch (e) {
        authError = e;
      }
      const verdict = state.rateLimiter.admit(ip, auth === undefined ? undefined : claimedUid(def, headers, state.accounts, state.config), charges(def, values, state), state.clock.base.now());
      if (!verdict.ok) {
        const retry: Record<string, string> = verdict.retryAfterSeconds === undefined ? {} : { 'retry-after': String(verdict.retryAfterSeconds) };
        throw new VenueError(verdict.code, verdict.msg, verdict.status, undefined, retry);
      }
      checkRawValues(def, values, repeated);
      if (auth === undefined) throw authError;

      const input = Object.fromEntries(Object.entries(values).filter(([k]) => !AUTH_PARAMS.includes(k) || k in def!.params));
      const checked = checkParams(def.params, def.rules, input, { unknown: 'pass' });
      const violation = checked.violations[0];
      if (violation) throw violationToError(def.id, violation);
      checkValueBounds(def, checked.values);

      const handler = deps.handlers.get(def.id);
      if (!handler) throw venueErrors.notImplemented(def.id);
      const ctx: HandlerContext = {
        def,
        params: checked.values,
        account: auth.account,
        apiKey: auth.apiKey,
        ip,
        now,
        rawQuery,
        rawBody,
        headers,
        sandbox: state,
      };
      const result: unknown = await handler(ctx);
      const after = state.faults.take(def.id, ['error-after'])[0];
      if (after) return sendWire(reply, after.status ?? 500, faultBody());
      return sendResult(reply, result);
    } catch (error) {
      return sendError(reply, error, state.log, { endpoint: def?.id, method: request.method, path });
    }
  };
}

function route(deps: PipelineDeps, method: string, path: string) {
  let match;
  try {
    match = deps.router.match(method, path);
  } catch {
    throw venueErrors.badRequest('the path is not valid URL encoding');
  }
  if (match.kind === 'none') throw venueErrors.noRoute(method, path);
  if (match.kind === 'wrong-method') throw venueErrors.wrongMethod(method, path, match.allowed);
  return match;
}

/** The call's weight charges; a weight rule that cannot read odd raw values charges the endpoint's base weight. */
function charges(def: AnyEndpoint, values: Readonly<Record<string, unknown>>, state: SandboxState): WeightCharge[] {
  const profile = state.config.rateLimits.weightProfile;
  try {
    return chargesFor(def, values, profile);
  } catch {
    return chargesFor({ weight: 1, countsAsOrder: def.countsAsOrder }, {}, profile);
  }
}
