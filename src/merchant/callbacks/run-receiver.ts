/**
 * `halyard merchant receive`: the receiver (receiver.ts) with the command's journal, the client's
 * get-invoices and the merchant key from the environment, until the signal aborts (Ctrl-C): then
 * the server stops taking callbacks, the queries under way finish, and the journal closes.
 */
import type { Logger } from 'pino';
import { asyncScheduler } from 'rxjs';
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import type { Journal } from '../../journal/journal.ts';
import { UsageError } from '../../cli/errors.ts';
import { stopped } from '../../cli/io.ts';
import { CallbackStore } from './callback-store.ts';
import type { ListenAddress } from './listen-address.ts';
import { startReceiver, type Receiver } from './receiver.ts';

export interface RunReceiverOptions {
  readonly listen: ListenAddress;
  readonly journal: Journal;
  readonly client: ExchangeClient;
  readonly merchantKey: string;
  readonly quietMs?: number | undefined;
  readonly signal: AbortSignal | undefined;
  readonly log: Logger;
  /** Told once the server listens (the URL to give the venue; the port when 0 was asked). */
  readonly onListening: (receiver: Receiver) => void;
}

/** A listen failure the user can fix by another --listen: named, as bad input. */
function listenProblem(e: unknown, at: string): UsageError | undefined {
  const code = e && typeof e === 'object' && 'code' in e ? String(e.code) : '';
  if (code === 'EADDRINUSE') return new UsageError(`--listen ${at}: the address is in use (another receiver?); pick another port, or 0 for any free one`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new UsageError(`--listen ${at}: no interface of this machine has that address`);
  if (code === 'EACCES') return new UsageError(`--listen ${at}: not allowed to listen there (ports below 1024 need privileges)`);
  return undefined;
}

export async function runReceiver(o: RunReceiverOptions): Promise<void> {
  const receiver = await startReceiver({
    host: o.listen.host,
    port: o.listen.port,
    store: new CallbackStore(o.journal.db, o.journal.file),
    reader: o.client.merchant,
    merchantKeys: [o.merchantKey],
    now: () => Date.now(),
    scheduler: asyncScheduler,
    quietMs: o.quietMs,
    log: o.log,
  }).catch((e: unknown) => {
    throw listenProblem(e, `${o.listen.host}:${o.listen.port}`) ?? e;
  });
  o.onListening(receiver);
  try {
    await stopped(o.signal);
  } finally {
    await receiver.close();
  }
}
