/**
 * The sweep worker thread: receives `{ id, job }`, answers `{ id, outcome }`, one job at a time.
 * Started through sweep-worker-boot.mjs, which registers tsx first (see there why).
 */
import { parentPort } from 'node:worker_threads';
import { closeDataSources } from './sweep-data.ts';
import { executeJob } from './sweep-exec.ts';
import type { BacktestJob } from './sweep-job.ts';

export interface WorkerRequest {
  id: number;
  job: BacktestJob;
}

const port = parentPort;
if (port) {
  port.on('message', (msg: WorkerRequest) => {
    void executeJob(msg.job).then((outcome) => port.postMessage({ id: msg.id, outcome }));
  });
  port.on('close', closeDataSources);
}
