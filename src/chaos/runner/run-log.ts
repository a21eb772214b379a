/**
 * The bot's log during a chaos run, read as it is written (pino JSON lines): the HTTP status of every
 * answer the bot's client got (`exchange call` debug lines, src/exchange/client/rest-client.ts;
 * issue 22 deliverable 2 "bans earned" counts the 418s among them), each stamped on the sandbox
 * clock as it arrives, and the warnings and errors, counted by message, for the run's summary. The
 * rest is dropped: a 10,000-intent run logs hundreds of thousands of lines.
 */
import type { Outcome } from '../input.ts';

interface Line {
  level?: number;
  msg?: string;
  status?: number;
}

export class RunLog {
  readonly outcomes: Outcome[] = [];
  /** Warning and error messages (level >= 40) with how often each came. */
  readonly problems = new Map<string, { level: number; count: number; first: string }>();
  /** The last lines, whatever their level, for a failing run's report. */
  readonly tail: string[] = [];

  constructor(private readonly now: () => number) {}

  write(text: string): void {
    for (const raw of text.split('\n')) {
      if (raw === '') continue;
      this.tail.push(raw);
      if (this.tail.length > 200) this.tail.shift();
      const isCall = raw.includes('"msg":"exchange call"');
      if (!isCall && !/"level":[456]0/.test(raw)) continue;
      let line: Line;
      try {
        line = JSON.parse(raw) as Line;
      } catch {
        continue;
      }
      if (isCall && typeof line.status === 'number') this.outcomes.push({ time: this.now(), status: line.status });
      else if ((line.level ?? 0) >= 40) {
        const key = String(line.msg);
        const p = this.problems.get(key);
        if (p === undefined) this.problems.set(key, { level: line.level ?? 40, count: 1, first: raw });
        else p.count++;
      }
    }
  }

  statusCounts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const o of this.outcomes) out[o.status] = (out[o.status] ?? 0) + 1;
    return out;
  }
}
