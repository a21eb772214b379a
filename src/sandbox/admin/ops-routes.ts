/**
 * Admin routes for time, faults, listen keys and rate limits (JSON; paths relative to the prefix):
 *
 *   GET    /routes                   every admin route (method, path, summary)
 *   GET    /clock                    {now, speed, offsetMs}
 *   POST   /clock                    {time?, advanceMs?, speed?}: jump to a time, jump by a skew
 *                                    (negative allowed), change speed (0 freezes) -> {now, speed, offsetMs}
 *   GET    /faults                   active faults
 *   POST   /faults                   {kind, endpoint?, count?, status?, delayMs?, retryAfterSeconds?, skewMs?}
 *                                    (kinds: delay, hang, ban, rate-limit, error-before, error-after,
 *                                    clock-skew; see faults/fault-registry.ts) -> the fault with its id
 *   DELETE /faults                   remove all -> {}
 *   DELETE /faults/:id               -> {removed}
 *   GET    /listen-keys              active listen keys
 *   POST   /listen-keys/expire       {listenKey} -> {expired}: the key ends now (its sockets close)
 *   POST   /rate-limits/reset        {ip?} forget usage, back-off and bans -> {}
 *   POST   /system-status            {SPOT?: on|off, CONVERT?: on|off} -> the check-sys-status values
 */
import { z } from 'zod';
import { faultSpecSchema } from '../faults/fault-schema.ts';
import type { SandboxState } from '../http/route-types.ts';
import { MAX_TIME_MS, MIN_TIME_MS, timeProblem } from '../persistence/bounds.ts';
import { AdminError, defineAdminRoute, type AdminRegistry, type AdminRoute } from './admin-registry.ts';

const clockView = (s: SandboxState) => ({ now: s.clock.now(), speed: s.clock.speed, offsetMs: s.clock.offsetMs });

export function opsAdminRoutes(registry: AdminRegistry): AdminRoute[] {
  return [
    defineAdminRoute({ method: 'GET', path: '/routes', summary: 'Every admin route', handler: () => registry.list() }),
    defineAdminRoute({ method: 'GET', path: '/clock', summary: 'Sandbox time and speed', handler: ({ sandbox }) => clockView(sandbox) }),
    defineAdminRoute({
      method: 'POST',
      path: '/clock',
      summary: 'Set the time, jump by advanceMs, or change speed',
      // Every record is stamped with sandbox time: it stays within the stored time bound (persistence/bounds.ts).
      body: z.strictObject({ time: z.number().int().min(MIN_TIME_MS).max(MAX_TIME_MS).optional(), advanceMs: z.number().int().optional(), speed: z.number().nonnegative().optional() }),
      handler: ({ body, sandbox }) => {
        if (body.time !== undefined) sandbox.clock.setTime(body.time);
        if (body.advanceMs !== undefined) {
          const problem = timeProblem(sandbox.clock.now() + body.advanceMs);
          if (problem !== undefined) throw new AdminError(400, `advanceMs: the sandbox time ${problem}`);
          sandbox.clock.advance(body.advanceMs);
        }
        if (body.speed !== undefined) sandbox.clock.setSpeed(body.speed);
        return clockView(sandbox);
      },
    }),
    defineAdminRoute({ method: 'GET', path: '/faults', summary: 'Active faults', handler: ({ sandbox }) => sandbox.faults.list() }),
    defineAdminRoute({ method: 'POST', path: '/faults', summary: 'Inject a fault', body: faultSpecSchema, handler: ({ body, sandbox }) => sandbox.faults.add(body) }),
    defineAdminRoute({
      method: 'DELETE',
      path: '/faults',
      summary: 'Remove every fault',
      handler: ({ sandbox }) => {
        sandbox.faults.clear();
        return {};
      },
    }),
    defineAdminRoute({ method: 'DELETE', path: '/faults/:id', summary: 'Remove one fault', handler: ({ params, sandbox }) => ({ removed: sandbox.faults.remove(params['id'] ?? '') }) }),
    defineAdminRoute({ method: 'GET', path: '/listen-keys', summary: 'Active listen keys', handler: ({ sandbox }) => sandbox.listenKeys.active(sandbox.clock.now()) }),
    defineAdminRoute({
      method: 'POST',
      path: '/listen-keys/expire',
      summary: 'Expire a listen key now',
      body: z.strictObject({ listenKey: z.string().min(1) }),
      handler: ({ body, sandbox }) => ({ expired: sandbox.listenKeys.expire(body.listenKey) }),
    }),
    defineAdminRoute({
      method: 'POST',
      path: '/rate-limits/reset',
      summary: 'Forget rate-limit usage and bans',
      body: z.strictObject({ ip: z.string().optional() }),
      handler: ({ body, sandbox }) => {
        sandbox.rateLimiter.reset(body.ip);
        return {};
      },
    }),
    defineAdminRoute({
      method: 'POST',
      path: '/system-status',
      summary: 'Switch SPOT or CONVERT on or off (check-sys-status)',
      body: z.strictObject({ SPOT: z.enum(['on', 'off']).optional(), CONVERT: z.enum(['on', 'off']).optional() }),
      handler: ({ body, sandbox }) => Object.assign(sandbox.config.systemStatus, body),
    }),
  ];
}
