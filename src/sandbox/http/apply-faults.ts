/**
 * Applies the injected faults that act before a handler runs (see faults/fault-registry.ts):
 * delay, then hang, ban, forced 429 and error-before. Returns true when the request has been
 * answered (or deliberately left hanging) and the pipeline must stop.
 */
import type { FastifyReply } from 'fastify';
import type { FaultRegistry } from '../faults/fault-registry.ts';
import { faultBody, sendWire } from './send.ts';

/** Sockets left hanging on purpose; destroyed when their time is up or the server closes. */
export class HangTracker {
  private readonly replies = new Set<FastifyReply>();

  hang(reply: FastifyReply, ms: number | undefined): void {
    reply.hijack();
    this.replies.add(reply);
    reply.raw.on('close', () => this.replies.delete(reply));
    if (ms !== undefined) setTimeout(() => this.release(reply), ms).unref();
  }

  releaseAll(): void {
    for (const reply of this.replies) this.release(reply);
  }

  private release(reply: FastifyReply): void {
    this.replies.delete(reply);
    reply.raw.destroy();
  }
}

export async function applyPreFaults(
  faults: FaultRegistry,
  endpointId: string,
  reply: FastifyReply,
  deps: { sleep: (ms: number) => Promise<void>; hangs: HangTracker },
): Promise<boolean> {
  const taken = faults.take(endpointId, ['delay', 'hang', 'ban', 'rate-limit', 'error-before']);
  if (taken.length === 0) return false;
  const delay = taken.filter((f) => f.kind === 'delay').reduce((sum, f) => sum + (f.delayMs ?? 0), 0);
  if (delay > 0) await deps.sleep(delay);
  const first = (kind: string) => taken.find((f) => f.kind === kind);
  const hang = first('hang');
  if (hang) {
    deps.hangs.hang(reply, hang.delayMs);
    return true;
  }
  const ban = first('ban');
  if (ban) {
    const s = ban.retryAfterSeconds ?? 120;
    sendWire(reply, 418, { code: -1003, msg: `Way too many requests; IP banned for ${s} seconds (injected fault).` }, { 'retry-after': String(s) });
    return true;
  }
  const limited = first('rate-limit');
  if (limited) {
    const s = limited.retryAfterSeconds ?? 1;
    sendWire(reply, 429, { code: -1003, msg: 'Too many requests; current limit is exceeded (injected fault).' }, { 'retry-after': String(s) });
    return true;
  }
  const error = first('error-before');
  if (error) {
    sendWire(reply, error.status ?? 503, faultBody());
    return true;
  }
  return false;
}
