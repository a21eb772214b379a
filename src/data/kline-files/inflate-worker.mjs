/**
 * Worker thread of inflated-chunks.ts: streams a byte range of a file through zlib (gunzip or raw
 * inflate) and posts the output chunks to the main thread, which takes them synchronously. Plain
 * JavaScript so that the thread starts without the TypeScript loader.
 *
 * The protocol (workerData: path, start, length, codec, port, state):
 * - each message on `port` is { chunk }, then one { done: true } or { error: { message, code } };
 * - state (an Int32Array over a SharedArrayBuffer): [POSTED] counts the messages posted (the main
 *   thread waits on it), [TAKEN] the messages the main thread has taken, [CANCEL] is set when it
 *   stops reading. At most IN_FLIGHT chunks wait untaken: the worker blocks until the main thread
 *   catches up, so a file of any size holds a few chunks, never the whole output.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { workerData } from 'node:worker_threads';
import { createGunzip, createInflateRaw } from 'node:zlib';

const POSTED = 0;
const TAKEN = 1;
const CANCEL = 2;
const IN_FLIGHT = 4;
const CHUNK_BYTES = 1 << 16;

const { path, start, length, codec, port } = workerData;
const state = new Int32Array(workerData.state);
let posted = 0;
let finished = false;

function post(message) {
  port.postMessage(message);
  posted++;
  Atomics.store(state, POSTED, posted);
  Atomics.notify(state, POSTED);
}

/** The last message: the error (once), so that the main thread never waits for a worker that is gone. */
function fail(e) {
  if (finished) return;
  finished = true;
  post({ error: { message: e instanceof Error ? e.message : String(e), code: e && typeof e === 'object' && 'code' in e ? String(e.code) : undefined } });
}

process.on('uncaughtException', fail);

async function run() {
  const input =
    length === 0
      ? Readable.from([])
      : createReadStream(path, { highWaterMark: CHUNK_BYTES, ...(start !== undefined ? { start } : {}), ...(length !== undefined ? { end: (start ?? 0) + length - 1 } : {}) });
  const zlib = codec === 'gunzip' ? createGunzip({ chunkSize: CHUNK_BYTES }) : createInflateRaw({ chunkSize: CHUNK_BYTES });
  input.on('error', (e) => zlib.destroy(e));
  for await (const chunk of input.pipe(zlib)) {
    for (;;) {
      if (Atomics.load(state, CANCEL) !== 0) return;
      const taken = Atomics.load(state, TAKEN);
      if (posted - taken < IN_FLIGHT) break;
      Atomics.wait(state, TAKEN, taken);
    }
    post({ chunk });
  }
  if (Atomics.load(state, CANCEL) !== 0) return;
  finished = true;
  post({ done: true });
}

run().then(
  () => process.exit(0),
  (e) => {
    fail(e);
    process.exit(0);
  },
);
