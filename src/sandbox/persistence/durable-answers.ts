/**
 * With a state file, an answer to a request that may change state leaves only once the change is
 * saved (issue 24, defect 8: a cancel answered 200, or an account the admin API created, came back
 * as it was before after a SIGKILL). A fastify onSend hook holds each such answer until the state
 * sync's next group commit (state-sync.ts `durable`): every answer of one event-loop turn waits
 * for the same transaction, so under load one save covers many answers (docs/guides/sandbox.md "What
 * survives a restart" has the measured cost).
 *
 * GET, HEAD and OPTIONS answers do not wait: they change nothing a client was told succeeded.
 * Every other answer waits, refusals included (cheap: they share the save). A save that fails
 * turns the answer into HTTP 500 -1000, an unknown outcome (spec 7.2): the change happened in
 * memory but would not survive a restart, and the caller must not read success.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { venueErrors } from '../http/error-codes.ts';
import { stringifyWire } from '../wire-json.ts';
import type { StateSync } from './state-sync.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function answerWhenSaved(app: FastifyInstance, sync: Pick<StateSync, 'durable'>, log: Logger): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (READS.has(request.method)) return payload;
    try {
      await sync.durable();
      return payload;
    } catch (err) {
      log.error({ err, method: request.method, url: request.url }, 'saving the sandbox state before an answer failed: answered 500');
      const unknown = venueErrors.unknown();
      void reply.code(unknown.httpStatus).header('content-type', 'application/json; charset=utf-8');
      return stringifyWire(unknown.body());
    }
  });
}
