/**
 * Injects a chaos run's scheduled faults into the sandbox and keeps each one's start and end
 * (issue 22 deliverable 2: "the time each fault took to heal" is measured from the end). HTTP
 * faults and listen-key expiry go through the sandbox's admin API (POST /faults, DELETE
 * /faults/:id, GET /listen-keys, POST /listen-keys/expire; src/sandbox/admin/ops-routes.ts), as an
 * operator would; dropped and stalled sockets through the stream server's hooks (dropAll,
 * setSilent), which the admin API does not offer. Whether an HTTP fault has fired is read from the
 * fault registry (a fault with a count is removed once it has fired that often).
 *
 * Times are sandbox ms. An HTTP fault ends when the bot has the answer it made (the first status it
 * answers with, e.g. the 418 of a ban, among the bot's outcomes since the fault started: a fault is
 * taken when its request arrives, its answer may come a delay later, and a 418 after the window
 * would count as a ban earned), or when it fired with no status to wait for (a delay, a hang), or
 * when it is removed unfired after its duration; a stall ends when the streams talk again; a drop
 * and an expiry are instants.
 */
import type { SandboxHandle } from '../../sandbox/server.ts';
import type { FaultRecord, Outcome } from '../input.ts';
import type { FaultKind } from './fault-kinds.ts';
import type { Injection } from './fault-schedule.ts';

export interface InjectedFault extends FaultRecord {
  readonly seq: number;
  readonly kind: FaultKind;
  /** What was injected (the sandbox fault, the endpoint, the stall's length). */
  readonly detail: string;
  /** An HTTP fault that fired at least once before its end (false: removed unfired). */
  fired: boolean;
}

interface Active {
  readonly record: InjectedFault;
  readonly until: number;
  readonly sandboxId?: string;
  /** The HTTP status the fault answers with, when it has one. */
  readonly status?: number;
  /** When it was seen fired while its answer was awaited. */
  firedAt?: number;
  readonly stall?: boolean;
}

/** How long (sandbox ms) a fired fault's answer is awaited before the fault is ended without it. */
const ANSWER_WAIT_MS = 30_000;

const STATUS_OF: Partial<Record<string, number>> = { ban: 418, 'rate-limit': 429, 'clock-skew': 400 };

export class Injector {
  private readonly active: Active[] = [];
  readonly log: InjectedFault[] = [];
  private readonly admin: string;

  /** Outcomes already taken as some fault's answer (their index in `outcomes`). */
  private readonly claimed = new Set<number>();

  constructor(
    private readonly s: SandboxHandle,
    /** The statuses the bot got so far (run-log.ts), read to find each fault's answer. */
    private readonly outcomes: readonly Outcome[] = [],
  ) {
    this.admin = `${s.baseUrl}${s.config.admin.prefix}`;
  }

  private now(): number {
    return this.s.clock.now();
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.admin}${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
    const text = await res.text();
    if (!res.ok) throw new Error(`sandbox admin ${method} ${path}: HTTP ${res.status} ${text}`);
    return JSON.parse(text) as T;
  }

  private streams() {
    const streams = this.s.services.streams;
    if (streams === undefined) throw new Error('the sandbox has no stream server (services.streams)');
    return streams;
  }

  async inject(inj: Injection): Promise<InjectedFault> {
    const start = this.now();
    const record = (detail: string, end: number | null, fired: boolean): InjectedFault => {
      const r: InjectedFault = { seq: inj.seq, kind: inj.kind, start, end, detail, fired };
      this.log.push(r);
      return r;
    };
    if (inj.fault !== undefined) {
      const f = inj.fault;
      const added = await this.call<{ id: string }>('POST', '/faults', f);
      const detail = `${f.kind}${f.endpoint ? ` on ${f.endpoint}` : ''}${f.status ? ` ${f.status}` : ''}${f.delayMs !== undefined ? ` ${f.delayMs} ms` : ''}${f.skewMs !== undefined ? ` skew ${f.skewMs} ms` : ''}${f.retryAfterSeconds !== undefined ? ` retry-after ${f.retryAfterSeconds} s` : ''} x${f.count ?? '∞'}`;
      const r = record(detail, null, false);
      const status = f.status ?? STATUS_OF[f.kind];
      this.active.push({ record: r, until: start + inj.durationMs, sandboxId: added.id, ...(status !== undefined ? { status } : {}) });
      return r;
    }
    switch (inj.kind) {
      case 'drop':
        this.streams().dropAll();
        return record('every WebSocket terminated', start, true);
      case 'listen-key': {
        const keys = await this.call<{ listenKey: string }[]>('GET', '/listen-keys');
        for (const k of keys) await this.call('POST', '/listen-keys/expire', { listenKey: k.listenKey });
        return record(`${keys.length} listen key(s) expired`, start, keys.length > 0);
      }
      case 'stall': {
        this.streams().setSilent(true);
        const r = record(`streams silent for ${inj.durationMs} ms`, null, true);
        this.active.push({ record: r, until: start + inj.durationMs, stall: true });
        return r;
      }
      default:
        throw new Error(`fault kind ${inj.kind} has no sandbox fault in the schedule`);
    }
  }

  /** End what has fired or run its time. */
  async tick(): Promise<void> {
    if (this.active.length === 0) return;
    const now = this.now();
    const registered = new Map(this.s.faults.list().map((f) => [f.id, f]));
    for (const a of [...this.active]) {
      if (a.sandboxId !== undefined) {
        const f = registered.get(a.sandboxId);
        if (f === undefined) {
          // Fired as often as its count: the registry removed it. Ended once the bot has its answer.
          a.record.fired = true;
          a.firedAt ??= now;
          const answer = a.status === undefined ? undefined : this.answerOf(a);
          if (a.status === undefined) this.finish(a, now);
          else if (answer !== undefined) this.finish(a, Math.max(answer, a.record.start));
          else if (now - a.firedAt > ANSWER_WAIT_MS) this.finish(a, now);
        } else if (now >= a.until) {
          a.record.fired = f.fired > 0;
          await this.call('DELETE', `/faults/${a.sandboxId}`);
          this.finish(a, now);
        }
      } else if (a.stall === true && now >= a.until) {
        this.streams().setSilent(false);
        this.finish(a, now);
      }
    }
  }

  /** End every fault now (the run's settle phase). */
  async endAll(): Promise<void> {
    const now = this.now();
    for (const a of [...this.active]) {
      if (a.sandboxId !== undefined) {
        const f = this.s.faults.list().find((x) => x.id === a.sandboxId);
        a.record.fired = f === undefined || f.fired > 0;
        if (f !== undefined) await this.call('DELETE', `/faults/${a.sandboxId}`);
      } else if (a.stall === true) this.streams().setSilent(false);
      this.finish(a, now);
    }
  }

  /** The time of the first unclaimed outcome with the fault's status since it started (claimed). */
  private answerOf(a: Active): number | undefined {
    for (let i = 0; i < this.outcomes.length; i++) {
      const o = this.outcomes[i] as Outcome;
      if (o.time < a.record.start || o.status !== a.status || this.claimed.has(i)) continue;
      this.claimed.add(i);
      return o.time;
    }
    return undefined;
  }

  get activeCount(): number {
    return this.active.length;
  }

  private finish(a: Active, now: number): void {
    a.record.end = now;
    this.active.splice(this.active.indexOf(a), 1);
  }
}
