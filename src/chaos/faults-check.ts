/**
 * Bans earned and the time each fault took to heal (issue 22 deliverable 2). A 418 is the venue's
 * IP ban for requests sent on after a 429 (spec 7.1, spec 8 items 5-6); the schedule may inject 418
 * itself (deliverable 1), so only a 418 outside an injected-418 fault is a ban the bot earned.
 *
 * A fault has healed when every stream the journal tracks is LIVE again at or after the fault
 * stopped (stream-health rows); a fault still on at the run's end, or after which the streams never
 * came back, is unhealed.
 */
import type { ChaosRunInput } from './input.ts';
import { allLive } from './intervals.ts';
import type { ChaosReport, FaultHeal } from './report.ts';

export function checkBans(input: ChaosRunInput): ChaosReport['bans'] {
  const kinds = new Set(input.options?.injectedBanKinds ?? ['418']);
  const windows = input.faults.filter((f) => kinds.has(f.kind));
  let earned = 0;
  let injected = 0;
  for (const o of input.outcomes) {
    if (o.status !== 418) continue;
    if (windows.some((f) => o.time >= f.start && o.time <= (f.end ?? input.end))) injected++;
    else earned++;
  }
  return { earned, injected };
}

export function checkHeals(input: ChaosRunInput): ChaosReport['faults'] {
  const streams = new Set(input.journal.streamHealth.map((r) => r.stream));
  const live = allLive(input.journal.streamHealth, streams, input.start, input.end);
  const heals: FaultHeal[] = input.faults.map((f) => {
    let healedAt: number | null = null;
    if (f.end !== null) {
      if (streams.size === 0) healedAt = f.end;
      else {
        const end = f.end;
        // LIVE at the fault's end, or the first LIVE after it (a stream LIVE up to the run's end counts at the end too).
        const iv = live.find((l) => l.end > end || (l.end === input.end && l.start <= end));
        if (iv !== undefined) healedAt = Math.max(iv.start, end);
      }
    }
    return { kind: f.kind, start: f.start, end: f.end, healedAt, healMs: healedAt === null || f.end === null ? null : healedAt - f.end };
  });
  const times = heals.flatMap((h) => (h.healMs === null ? [] : [h.healMs]));
  return { heals, unhealed: heals.filter((h) => h.healedAt === null).length, longestHealMs: times.length === 0 ? null : Math.max(...times) };
}
