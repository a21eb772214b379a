/**
 * The embedded sandbox for the live-bot bench (bench/bot-live.bench.ts), in a process of its own:
 * forked by the bot's process (bench/bot-live-child.ts) so neither the sandbox's memory nor its
 * CPU (market agents, matching, HTTP answers, stream writes) is counted as the bot's. Its synthetic
 * market (every default symbol, `market.historyBars` of history so the strategies warm up at once
 * through REST klines) runs on a VirtualClock that only moves when the bot's process says so over
 * IPC, one minute at a time, in step with the bot's virtual scheduler. The bot talks to it over
 * HTTP and WebSocket on 127.0.0.1 like any client; IPC only carries the set-up and the clock.
 */
import { startSandbox } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';

export type SandboxRequest = { kind: 'advance'; ms: number } | { kind: 'stop' };
export type SandboxReply =
  | { kind: 'ready'; baseUrl: string; wsUrl: string; apiKey: string; apiSecret: string }
  | { kind: 'advanced'; now: number }
  | { kind: 'stopped'; cpuUs: number; maxRssMb: number };

const start = Number(process.argv[2]);
const historyBars = Number(process.argv[3]);
const clock = new VirtualClock(start);
const s = await startSandbox({ clock, config: { market: { enabled: true, seed: 21, historyBars } } });
const send = (m: SandboxReply) => process.send?.(m);
process.on('message', (m: SandboxRequest) => {
  void (async () => {
    if (m.kind === 'advance') {
      await clock.advance(m.ms);
      send({ kind: 'advanced', now: clock.now() });
    } else {
      await s.close();
      const cpu = process.cpuUsage();
      process.send?.({ kind: 'stopped', cpuUs: cpu.user + cpu.system, maxRssMb: process.resourceUsage().maxRSS / 1024 } satisfies SandboxReply, () => process.exit(0));
    }
  })();
});
send({ kind: 'ready', baseUrl: s.baseUrl, wsUrl: s.wsUrl, apiKey: s.apiKey, apiSecret: s.apiSecret });
