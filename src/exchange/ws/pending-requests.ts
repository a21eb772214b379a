/**
 * Control requests waiting for their reply (protocol notes 1). A `{"result":..,"id":n}` reply is
 * matched by id. Error replies (`{"code":2,"msg":..}`, `{"code":3,..}`, `{"code":"-100010",..}`)
 * carry no id: the venue answers each request in turn, so an error answers the oldest request still
 * waiting (inferred from the one-reply-per-request protocol). Each request has a bound on the
 * injected scheduler.
 */
import { timer, type SchedulerLike, type Subscription } from 'rxjs';
import { StreamRequestTimeoutError, type StreamRequest, type StreamRequestError } from './stream-errors.ts';

interface Waiting {
  request: StreamRequest;
  resolve(result: unknown): void;
  reject(err: Error): void;
  timeout: Subscription;
}

export class PendingRequests {
  private queue: Waiting[] = [];

  constructor(
    private readonly scheduler: SchedulerLike,
    private readonly timeoutMs: number,
  ) {}

  get size(): number {
    return this.queue.length;
  }

  /** Wait for the reply to `request` (call before sending it). */
  add(request: StreamRequest): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      const waiting: Waiting = {
        request,
        resolve,
        reject,
        timeout: timer(this.timeoutMs, this.scheduler).subscribe(() => {
          this.remove(waiting);
          reject(new StreamRequestTimeoutError(request, this.timeoutMs));
        }),
      };
      this.queue.push(waiting);
    });
  }

  /** The reply with `id`; false when no request waits for it. */
  resolve(id: number | string, result: unknown): boolean {
    const waiting = this.queue.find((w) => String(w.request.id) === String(id));
    if (!waiting) return false;
    this.remove(waiting);
    waiting.resolve(result);
    return true;
  }

  /** An error reply; false when no request waits. */
  rejectOldest(error: StreamRequestError): boolean {
    const waiting = this.queue[0];
    if (!waiting) return false;
    this.remove(waiting);
    waiting.reject(error.forRequest(waiting.request));
    return true;
  }

  rejectAll(makeError: (request: StreamRequest) => Error): void {
    const all = this.queue;
    this.queue = [];
    for (const w of all) {
      w.timeout.unsubscribe();
      w.reject(makeError(w.request));
    }
  }

  private remove(waiting: Waiting): void {
    waiting.timeout.unsubscribe();
    this.queue = this.queue.filter((w) => w !== waiting);
  }
}
