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
 * removed). Listen-key expiry is an admin action (`POST /listen-keys/expire`), not a fault.
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

  /** Matching faults of these kinds, in insertion order; each firing uses one of its count. */
  take(endpointId: string, kinds: readonly FaultKind[]): Fault[] {
    const taken: Fault[] = [];
    for (const fault of [...this.faults]) {
      if (!kinds.includes(fault.kind)) continue;
      if (fault.endpoint !== undefined && fault.endpoint !== endpointId) continue;
      fault.fired++;
      taken.push({ ...fault });
      if (fault.count !== undefined && fault.fired >= fault.count) this.remove(fault.id);
    }
    return taken;
  }
}
