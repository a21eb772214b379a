/**
 * Fault injection for the sandbox (issue "Sandbox exchange"): make the exchange misbehave on
 * purpose so clients can be tested against every failure mode of spec 7.1 and protocol notes 7.
 *
 * Kinds and when the HTTP pipeline applies them:
 * - `delay`        wait `delayMs` (wall time) before handling the request;
 * - `hang`         never answer; the socket is destroyed after `delayMs`, or when the server closes;
 * - `ban`          answer 418 with `Retry-After: retryAfterSeconds` (default 120);
 * - `rate-limit`   answer 429 with `Retry-After: retryAfterSeconds` (default 1), code -1003;
 * - `error-before` answer 5xx (`status`, default 503) BEFORE the handler runs: nothing committed;
 * - `error-after`  run the handler (its effects are committed), then answer 5xx (default 500);
 * - `clock-skew`   add `skewMs` to the server time used for timestamp checks (spec 5.3) only,
 *                  so a client synced via /time sees -1021 (the clock itself is moved by the
 *                  admin clock route instead).
 * Each fault is optionally scoped to one endpoint id and fires `count` times (absent: until
 * removed); a firing is a request it took effect on (`take`: one answer per request). Listen-key expiry is an admin action (`POST /listen-keys/expire`), not a fault.
 */
export const FAULT_KINDS = ['delay', 'hang', 'ban', 'rate-limit', 'error-before', 'error-after', 'clock-skew'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
  kind: FaultKind;
  endpoint?: string | undefined;
  count?: number | undefined;
  status?: number | undefined;
  delayMs?: number | undefined;
  retryAfterSeconds?: number | undefined;
  skewMs?: number | undefined;
}

export interface Fault extends FaultSpec {
  id: string;
  /** Times it has fired so far. */
  fired: number;
}

export class FaultRegistry {
  private readonly faults: Fault[] = [];
  private nextId = 1;

  add(spec: FaultSpec): Fault {
    const fault: Fault = { ...spec, id: `f${this.nextId++}`, fired: 0 };
    this.faults.push(fault);
    return fault;
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  remove(id: string): boolean {
    const i = this.faults.findIndex((f) => f.id === id);
    if (i < 0) return false;
    this.faults.splice(i, 1);
    return true;
  }

  clear(): void {
    this.faults.length = 0;
  }

  /**
   * The faults of these kinds that take effect on one request to `endpointId`, in insertion
   * order; each one returned uses one of its count, and only those. Faults that add up (`delay`:
   * summed, `clock-skew`: summed) all take effect. A request gets one answer, so of the faults
   * that answer it instead of its handler only one takes effect: the first of the first kind in
   * ANSWER_PRECEDENCE (the order apply-faults.ts reads them in); the others stay, their count
   * untouched, for the next request (a ban and a 429 set on one endpoint: the 418 now, the 429
   * next, not both used up by the 418).
   */
  take(endpointId: string, kinds: readonly FaultKind[]): Fault[] {
    const matching = this.faults.filter((f) => kinds.includes(f.kind) && (f.endpoint === undefined || f.endpoint === endpointId));
    let answer: Fault | undefined;
    for (const kind of ANSWER_PRECEDENCE) {
      answer = matching.find((f) => f.kind === kind);
      if (answer !== undefined) break;
    }
    const taken: Fault[] = [];
    for (const fault of matching) {
      if (ANSWERS.has(fault.kind) && fault !== answer) continue;
      fault.fired++;
      taken.push({ ...fault });
      if (fault.count !== undefined && fault.fired >= fault.count) this.remove(fault.id);
    }
    return taken;
  }
}

/** Kinds that answer the request in place of its handler, the one that wins first (a hang never answers at all). */
const ANSWER_PRECEDENCE: readonly FaultKind[] = ['hang', 'ban', 'rate-limit', 'error-before', 'error-after'];
const ANSWERS: ReadonlySet<FaultKind> = new Set(ANSWER_PRECEDENCE);
