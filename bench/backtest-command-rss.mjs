// Preloaded (`node --import`) into the `halyard backtest` child of bench/backtest-command.bench.ts:
// writes the process's peak RSS (resourceUsage().maxRSS, KiB) to BENCH_RSS_FILE as it exits,
// since a parent cannot read a child's. Plain JavaScript: it adds no loader to what is measured.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
