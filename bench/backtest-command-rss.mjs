// Preloaded (`node --import`) into the `halyard backtest` child of bench/backtest-command.bench.ts:
// writes the process's peak RSS (resourceUsage().maxRSS, KiB) and its CPU time (user + system, all
// threads, microseconds) to BENCH_RSS_FILE as it exits, "maxRSS cpu", since a parent cannot read a
// child's. Plain JavaScript: it adds no loader to what is measured.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(file, `${u.maxRSS} ${u.userCPUTime + u.systemCPUTime}`);
  });
}
