/**
 * Resolving a money movement whose outcome is unknown (spec 7.1: "the execution status is UNKNOWN
 * and the operation may have succeeded, so it must not be treated as a failure"), as
 * `reconcileOrder` does for orders: look the movement up by the client id the request carried,
 * never send it again. A withdrawal sent twice is money sent twice.
 *
 * The writes and where each is found (spec 4.2, 4.3, 4.9):
 * - `wallet.withdraw` (withdrawOrderId): the withdrawal history filtered by it (the last 7 days,
 *   rule 4 of 4.2);
 * - `account.createTransfer` and `account.createTransferV4` (client_transfer_id): GET transfers
 *   by client_transfer_id (4.3);
 * - `subAccount.universalTransfer` (clientTranId): the universal transfer history filtered by it
 *   and by the request's own fromEmail (the history's fromEmail defaults to the master's: a
 *   transfer out of a sub-account is found only under that sub-account; 4.9 rule 2; the last 30
 *   days);
 * - `subAccount.subToMaster` (clientTranId): the sub-account's outgoing history (type 2) filtered by
 *   it (the last 30 days);
 * - `subAccount.collectFromSubAccount` (clientRequestId, always the caller's): the fund records
 *   filtered by it.
 * The client id is the one the request carried: the caller's, or the one the client generated
 * when the caller gave none (`error.request.clientId`).
 *
 * As for orders, a request still on its way could land after the first query: when nothing is
 * found and the request could still be accepted (timestamp + recvWindow not passed on the
 * server's clock), it waits until it cannot and looks once more, so a `not-found` is final.
 * `settle: false` skips the wait.
 */
import { getTransfers } from '../endpoints/areas/account.ts';
import { getFundRecord, subTransferHistory, universalTransferHistory } from '../endpoints/areas/sub-account.ts';
import { withdrawHistory } from '../endpoints/areas/wallet.ts';
import { ExchangeError } from '../errors/errors.ts';
import { settleWait, type ReconcileOptions } from './reconcile.ts';
import type { CallOptions, RestClient } from './rest-client.ts';

/** A record of the history that holds the movement (the venue's fields, as its codec reads them). */
export type MovementRecord = Readonly<Record<string, unknown>>;

export type WriteReconciliation =
  | {
      readonly status: 'found';
      /** The write's endpoint id (`wallet.withdraw` ...). */
      readonly endpoint: string;
      /** The client id parameter and its value. */
      readonly param: string;
      readonly clientId: string;
      /** The record carrying the client id (the newest, when the history holds several). */
      readonly record: MovementRecord;
    }
  | { readonly status: 'not-found'; readonly endpoint: string; readonly param: string; readonly clientId: string };

/** How one write is looked up: its client id parameter, the query that finds it, the records of its answer. */
interface Lookup {
  readonly param: string;
  query(rest: RestClient, id: string, sent: Readonly<Record<string, string>>, options: CallOptions): Promise<readonly MovementRecord[]>;
}

const LOOKUPS: Readonly<Record<string, Lookup>> = {
  'wallet.withdraw': {
    param: 'withdrawOrderId',
    query: (rest, id, _sent, o) => rest.call(withdrawHistory, { withdrawOrderId: id }, o),
  },
  'account.createTransfer': { param: 'client_transfer_id', query: transfersById },
  'account.createTransferV4': { param: 'client_transfer_id', query: transfersById },
  'subAccount.universalTransfer': {
    param: 'clientTranId',
    query: async (rest, id, sent, o) => {
      const from = sent['fromEmail'];
      return (await rest.call(universalTransferHistory, { clientTranId: id, ...(from === undefined ? {} : { fromEmail: from }) }, o)).result;
    },
  },
  'subAccount.subToMaster': {
    param: 'clientTranId',
    query: async (rest, id, _sent, o) => (await rest.call(subTransferHistory, { clientTranId: id, type: 2 }, o)).result,
  },
  'subAccount.collectFromSubAccount': {
    param: 'clientRequestId',
    query: (rest, id, _sent, o) => rest.call(getFundRecord, { clientRequestId: id }, o),
  },
};

async function transfersById(rest: RestClient, id: string, _sent: Readonly<Record<string, string>>, o: CallOptions): Promise<readonly MovementRecord[]> {
  return (await rest.call(getTransfers, { client_transfer_id: id }, o)).transfers;
}

/** The endpoints `reconcileWrite` takes. */
export const RECONCILABLE_WRITES: readonly string[] = Object.keys(LOOKUPS);

/** Looks up the money movement an unknown-outcome write may have made. Never resends anything. */
export async function reconcileWrite(rest: RestClient, error: ExchangeError, options: ReconcileOptions = {}): Promise<WriteReconciliation> {
  const { lookup, clientId } = writeOf(error);
  const { settle = true, ...call } = options;
  const sent = error.request?.params ?? {};
  const find = async (): Promise<WriteReconciliation> => {
    const records = await lookup.query(rest, clientId, sent, call);
    // The venue filters by the id; checked again here, so a venue that ignored the filter cannot
    // make another movement look like this one.
    const mine = records.filter((r) => r[lookup.param] === clientId);
    const record = mine.at(-1);
    const base = { endpoint: error.endpoint, param: lookup.param, clientId };
    return record === undefined ? { status: 'not-found', ...base } : { status: 'found', ...base, record };
  };
  const first = await find();
  if (first.status === 'found' || !settle) return first;
  if (!(await settleWait(rest, error, options.signal))) return first;
  return find();
}

/** The lookup and client id of a reconcilable write's error; a TypeError for anything else. */
function writeOf(error: ExchangeError): { lookup: Lookup; clientId: string } {
  const lookup = error instanceof ExchangeError ? LOOKUPS[error.endpoint] : undefined;
  if (lookup === undefined) {
    const what = error instanceof ExchangeError ? `an error of ${error.endpoint}` : String(error);
    throw new TypeError(`reconcileWrite takes an error of ${RECONCILABLE_WRITES.join(', ')}; got ${what} (orders: reconcileOrder)`);
  }
  const id = error.request?.clientId?.value ?? error.request?.params[lookup.param];
  if (id === undefined) throw new TypeError(`${error.endpoint}: the error carries no ${lookup.param} (the request never left)`);
  return { lookup, clientId: id };
}
