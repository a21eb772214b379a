/**
 * A pool of worker threads running BacktestJobs, one job per worker at a time, results in job
 * order. Size defaults to the available cores (never more workers than jobs). `workers: 0` runs
 * in this thread; an injected `runJob` also runs in this thread (tests, or a host that wants no
 * threads). A worker that dies fails its current job with the reason and is replaced, so the
 * sweep finishes. Keep one pool across batches (walk-forward folds) and close it at the end.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { BacktestJob, JobOutcome, RunJob } from './sweep-job.ts';

export interface PoolOptions {
  /** Worker threads; default the available cores; 0 = run in this thread. */
  workers?: number;
  /** Run jobs with this function in this thread instead of workers. */
  runJob?: RunJob;
}

export type Progress = (done: number, total: number) => void;

export interface JobPool {
  readonly size: number;
  run(jobs: readonly BacktestJob[], onProgress?: Progress): Promise<JobOutcome[]>;
  close(): Promise<void>;
}

// Built (dist/), the worker's entry is plain JavaScript and starts as is (tsx is registered in the
// worker only if its strategy is TypeScript: strategy/loading/loader.ts); from the sources (vitest, a
// checkout's bin without a fresh build) the .ts entry needs the boot that registers tsx first.
const COMPILED = import.meta.url.endsWith('.js');
const BOOT = new URL('./sweep-worker-boot.mjs', import.meta.url);
const ENTRY = new URL(COMPILED ? './sweep-worker.js' : './sweep-worker.ts', import.meta.url).href;

export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

/** In this thread, one job after another. */
function inlinePool(runJob: RunJob | undefined): JobPool {
  const exec = async (): Promise<RunJob> => runJob ?? (await import('./sweep-exec.ts')).executeJob;
  return {
    size: 0,
    async run(jobs, onProgress) {
      const run = await exec();
      const out: JobOutcome[] = [];
      for (const job of jobs) {
        try {
          out.push(await run(job));
        } catch (e) {
          out.push({ ok: false, error: e instanceof Error ? e.message : String(e) });
        }
        onProgress?.(out.length, jobs.length);
      }
      return out;
    },
    close: async () => {},
  };
}

interface Slot {
  worker: Worker;
  busy?: { id: number; resolve: (o: JobOutcome) => void };
}

function threadPool(size: number): JobPool {
  const slots: Slot[] = [];
  let nextId = 0;

  const spawn = (): Slot => {
    const slot: Slot = { worker: new Worker(COMPILED ? new URL(ENTRY) : BOOT, { workerData: { entry: ENTRY } }) };
    const fail = (why: string) => {
      const busy = slot.busy;
      slot.busy = undefined;
      busy?.resolve({ ok: false, error: `worker failed: ${why}` });
    };
    slot.worker.on('message', (msg: { id: number; outcome: JobOutcome }) => {
      const busy = slot.busy;
      if (busy && busy.id === msg.id) {
        slot.busy = undefined;
        busy.resolve(msg.outcome);
      }
    });
    slot.worker.on('error', (e) => fail(e.message));
    slot.worker.on('exit', (code) => {
      fail(`exited with code ${code}`);
      const i = slots.indexOf(slot);
      if (i >= 0) slots.splice(i, 1);
    });
    slots.push(slot);
    return slot;
  };

  const runOn = (slot: Slot, job: BacktestJob): Promise<JobOutcome> =>
    new Promise((resolve) => {
      const id = nextId++;
      slot.busy = { id, resolve };
      slot.worker.postMessage({ id, job });
    });

  return {
    size,
    async run(jobs, onProgress) {
      const out = new Array<JobOutcome>(jobs.length);
      let next = 0;
      let done = 0;
      const lane = async (reuse: Slot | undefined): Promise<void> => {
        let slot = reuse;
        while (next < jobs.length) {
          const i = next++;
          if (!slot || !slots.includes(slot)) slot = spawn();
          out[i] = await runOn(slot, jobs[i]!);
          onProgress?.(++done, jobs.length);
        }
      };
      // Idle workers from an earlier batch are reused before new ones are spawned.
      const lanes = Math.min(size, jobs.length);
      const idle = slots.filter((s) => !s.busy);
      await Promise.all(Array.from({ length: lanes }, (_, k) => lane(idle[k])));
      return out;
    },
    async close() {
      const all = slots.splice(0);
      await Promise.all(all.map((s) => s.worker.terminate()));
    },
  };
}

export function createPool(options: PoolOptions = {}): JobPool {
  if (options.runJob || options.workers === 0) return inlinePool(options.runJob);
  return threadPool(Math.max(1, Math.floor(options.workers ?? defaultWorkers())));
}
