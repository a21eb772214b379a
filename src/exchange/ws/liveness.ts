/**
 * Keepalive and staleness of one open socket (protocol notes 1). Every `pingIntervalMs` a JSON
 * `{"ping":<now>}` is sent; if no frame at all (pong or message) arrives within `pongTimeoutMs`
 * of that ping, the socket is STALE: a half-open TCP connection or a server that stopped talking
 * looks exactly like a quiet market, and only an unanswered ping tells them apart. Timers run on
 * the injected scheduler.
 */
import { interval, map, mergeMap, timer, type SchedulerLike, type Subscription } from 'rxjs';

export interface LivenessSettings {
  pingIntervalMs: number;
  pongTimeoutMs: number;
}

export class Liveness {
  private lastSeen: number;
  private readonly sub: Subscription;

  constructor(
    private readonly scheduler: SchedulerLike,
    settings: LivenessSettings,
    sendPing: (now: number) => void,
    onStale: (reason: string) => void,
  ) {
    this.lastSeen = scheduler.now();
    this.sub = interval(settings.pingIntervalMs, scheduler)
      .pipe(
        map(() => {
          const sentAt = scheduler.now();
          sendPing(sentAt);
          return sentAt;
        }),
        // mergeMap, not switchMap: with a timeout longer than the period every ping keeps its own check.
        mergeMap((sentAt) => timer(settings.pongTimeoutMs, scheduler).pipe(map(() => sentAt))),
      )
      .subscribe((sentAt) => {
        if (this.lastSeen < sentAt) onStale(`no pong and no message within ${settings.pongTimeoutMs} ms of the ping sent at ${sentAt} (last frame at ${this.lastSeen})`);
      });
  }

  /** A frame (or a protocol ping) arrived. */
  seen(): void {
    this.lastSeen = this.scheduler.now();
  }

  stop(): void {
    this.sub.unsubscribe();
  }
}
