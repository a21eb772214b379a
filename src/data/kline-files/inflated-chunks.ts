/**
 * A compressed byte range of a file (a `.gz` file, a zip entry's deflate data), decompressed by
 * node:zlib's streams and handed out synchronously, a chunk at a time, never held whole.
 *
 * Why a worker thread: the kline reader is synchronous (file-lines.ts), so that `halyard import`
 * writes inside one better-sqlite3 transaction as it reads, and node:zlib's synchronous calls
 * (`gunzipSync`, `inflateRawSync`) take the whole input and give the whole output at once (a
 * zlib object's `_processChunk`, used without a callback, closes the stream after one chunk). So
 * `createGunzip` / `createInflateRaw` run in a worker (inflate-worker.mjs) and this thread takes
 * their chunks with `receiveMessageOnPort`, blocking on `Atomics.wait` until one is posted; the
 * worker waits in turn when a few chunks are untaken (the protocol is in inflate-worker.mjs).
 *
 * Errors (a corrupt or truncated stream: zlib's "unexpected end of file", "incorrect header
 * check", a file that cannot be read) are thrown here as InflateError, from the `next()` that
 * reached them. Stopping early (a bad CSV row) stops and ends the worker.
 */
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';

const WORKER = new URL('./inflate-worker.mjs', import.meta.url);

/** Indices into the shared state (inflate-worker.mjs). */
const POSTED = 0;
const TAKEN = 1;
const CANCEL = 2;

/** A worker that posts nothing for this long is taken for gone (it posts its own errors, so only a thread that died mid-write stalls). */
const STALL_MS = 120_000;

export type InflateCodec = 'gunzip' | 'inflate-raw';

export class InflateError extends Error {
  /** zlib's code (e.g. Z_DATA_ERROR, Z_BUF_ERROR) or the file system's (ENOENT), when there is one. */
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined) {
    super(message);
    this.name = 'InflateError';
    this.code = code;
  }
}

type WorkerMessage = { chunk: Uint8Array } | { done: true } | { error: { message: string; code: string | undefined } };

/**
 * The decompressed bytes of `path` from `start` for `length` bytes (default: the whole file).
 * Each chunk is the caller's to keep.
 */
export function* inflatedChunks(path: string, codec: InflateCodec, range: { start?: number; length?: number } = {}): Generator<Buffer, void, undefined> {
  const state = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER, { workerData: { path, codec, ...range, port: port2, state: state.buffer }, transferList: [port2] });
  // Its errors come through the port; an 'error' event with no listener would end the process.
  worker.on('error', () => {});
  worker.unref();
  let taken = 0;
  try {
    for (;;) {
      let stalled = 0;
      while (Atomics.load(state, POSTED) === taken) {
        if (Atomics.wait(state, POSTED, taken, 1000) === 'timed-out' && (stalled += 1000) >= STALL_MS) {
          throw new InflateError(`decompression stopped: nothing from the worker for ${STALL_MS / 1000} s`, undefined);
        }
      }
      const received = receiveMessageOnPort(port1);
      if (!received) throw new InflateError('decompression worker: a message was announced but none arrived', undefined);
      taken++;
      Atomics.store(state, TAKEN, taken);
      Atomics.notify(state, TAKEN);
      const message = received.message as WorkerMessage;
      if ('done' in message) return;
      if ('error' in message) throw new InflateError(message.error.message, message.error.code);
      const chunk = message.chunk;
      yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
  } finally {
    Atomics.store(state, CANCEL, 1);
    Atomics.notify(state, TAKEN);
    port1.close();
    worker.terminate().catch(() => {});
  }
}
