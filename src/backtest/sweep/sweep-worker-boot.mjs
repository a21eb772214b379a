/**
 * Entry of a sweep worker thread: register tsx's loader in this thread, then import the
 * TypeScript worker named in workerData.entry. Why not `new Worker(url, { execArgv: ['--import',
 * 'tsx'] })`: on Node 20 a loader given through a worker's execArgv is not applied to the worker's
 * own entry module (nodejs/node#47747, tsx#354), so the .ts entry fails with
 * ERR_UNKNOWN_FILE_EXTENSION. Registering from a plain .mjs entry works on Node 20 and later.
 */
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
