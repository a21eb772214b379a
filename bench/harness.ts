/**
 * Benchmark helpers: every figure is printed next to a baseline measured in the same run, on the
 * same machine, so results compare across machines (ground rule: speed is measured here, never in
 * timed tests).
 */
import { cpus, totalmem } from 'node:os';

export interface Measurement {
  name: string;
  ops: number;
  ms: number;
  nsPerOp: number;
  opsPerSec: number;
}

/** Run `fn` `ops` times after a warm-up; `fn` may be async. */
export async function measure(name: string, ops: number, fn: (i: number) => unknown): Promise<Measurement> {
  const warm = Math.min(ops, Math.max(1000, Math.floor(ops / 10)));
  for (let i = 0; i < warm; i++) await fn(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < ops; i++) await fn(i);
  const ns = Number(process.hrtime.bigint() - start);
  return { name, ops, ms: ns / 1e6, nsPerOp: ns / ops, opsPerSec: (ops * 1e9) / ns };
}

/** Same as measure, for synchronous functions (no await overhead in the loop). */
export function measureSync(name: string, ops: number, fn: (i: number) => unknown): Measurement {
  const warm = Math.min(ops, Math.max(1000, Math.floor(ops / 10)));
  for (let i = 0; i < warm; i++) fn(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < ops; i++) fn(i);
  const ns = Number(process.hrtime.bigint() - start);
  return { name, ops, ms: ns / 1e6, nsPerOp: ns / ops, opsPerSec: (ops * 1e9) / ns };
}

export function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown cpu';
  return `${cpu}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

export function row(m: Measurement, baseline?: Measurement): string {
  const us = (m.nsPerOp / 1000).toFixed(2).padStart(9);
  const rate = Math.round(m.opsPerSec).toLocaleString('en-US').padStart(12);
  const ratio = baseline ? `  ${(m.nsPerOp / baseline.nsPerOp).toFixed(1)}x baseline` : '  (baseline)';
  return `  ${m.name.padEnd(52)} ${us} us/op ${rate} ops/s${ratio}`;
}
