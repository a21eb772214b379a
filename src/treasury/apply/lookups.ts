/**
 * Where each move is found at the venue by its own id, and what its record's status means
 * (spec 3.2 status sets; 4.2 withdraw history by `withdrawOrderId`, 4.6 convert order history,
 * 4.8 fiat details / history by `internalOrderId`, 4.9 universal transfer history by `clientTranId`
 * and fund records by `clientRequestId`). Used to follow a move to its final state and to resolve
 * an unknown outcome; only reads.
 */
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import type { ConvertMove, Move, MoveState } from '../moves.ts';
import { MASTER } from '../moves.ts';

export type VenueRecord = Readonly<Record<string, unknown>>;

export interface Found {
  /** The read that found it (journaled as the resolution's `by`). */
  by: string;
  record: VenueRecord;
  state: MoveState;
  venueId?: string | undefined;
  /** The venue's words on a failure or a partial outcome. */
  note?: string | undefined;
}

/** Spec 3.2 withdrawal: 0 PROCESSING, 1 SUCCESS, 2 FAILED. */
function withdrawState(status: unknown): MoveState {
  return status === 1 ? 'succeeded' : status === 2 ? 'failed' : 'pending';
}

/** Spec 3.2 sub-account transfer: success, pending, failed. */
function subTransferState(status: unknown): MoveState {
  return status === 'success' ? 'succeeded' : status === 'failed' ? 'failed' : 'pending';
}

/** Spec 3.2 collection task: INIT and PROCESSING are not final; PARTIAL_SUCCESS moved money (the comment says what stayed). */
function collectionState(status: unknown): MoveState {
  return status === 'SUCCESS' || status === 'PARTIAL_SUCCESS' ? 'succeeded' : status === 'FAILED' ? 'failed' : 'pending';
}

/** Spec 3.2 fiat order: only SUCCEEDED, FAILED and CANCEL are final; CANCEL is a failure. */
function fiatState(status: unknown): MoveState {
  return status === 'SUCCEEDED' ? 'succeeded' : status === 'FAILED' || status === 'CANCEL' ? 'failed' : 'pending';
}

/** Spec 3.2 convert order: TODO and PROCESSING are not final. */
export function convertState(status: unknown): MoveState {
  return status === 'SUCCESS' ? 'succeeded' : status === 'FAILED' ? 'failed' : 'pending';
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** What a non-convert move's venue record says: its state, the venue's id, the venue's words. */
export function foundOf(move: Exclude<Move, ConvertMove>, record: VenueRecord): Found {
  switch (move.kind) {
    case 'transfer':
      return { by: 'subAccount.universalTransferHistory', record, state: subTransferState(record['status']), venueId: text(record['clientTranId']) };
    case 'collect':
      return { by: 'subAccount.getFundRecord', record, state: collectionState(record['status']), venueId: text(record['clientRequestId']), note: text(record['comment']) };
    case 'withdraw':
      return { by: 'wallet.withdrawHistory', record, state: withdrawState(record['status']), venueId: text(record['id']), note: text(record['info']) };
    case 'cash-out':
      return { by: 'fiat.historyV2', record, state: fiatState(record['status']), venueId: text(record['internalOrderId']), note: text(record['errorMessage']) };
  }
}

async function recordsOf(client: ExchangeClient, move: Exclude<Move, ConvertMove>): Promise<readonly VenueRecord[]> {
  switch (move.kind) {
    case 'transfer': {
      // The history's fromEmail defaults to the master's (4.9 rule 2): a transfer out of a sub-account is listed under it.
      const from = move.from === MASTER ? {} : { fromEmail: move.from };
      return (await client.subAccount.universalTransferHistory({ clientTranId: move.clientId, ...from })).result;
    }
    case 'collect':
      return client.subAccount.getFundRecord({ clientRequestId: move.clientId });
    case 'withdraw':
      return client.wallet.withdrawHistory({ withdrawOrderId: move.clientId });
    case 'cash-out':
      // History (not details): it answers an empty list for an id it does not know, where details refuses.
      return (await client.fiat.historyV2({ internalOrderId: move.clientId, transactionType: '-1' })).data;
  }
}

/** The field of each kind's record that carries the client id. */
const ID_FIELD = { transfer: 'clientTranId', collect: 'clientRequestId', withdraw: 'withdrawOrderId', 'cash-out': 'internalOrderId' } as const;

/** A non-convert move found by its own client id (filtered again here: a venue ignoring the filter cannot pass another move off as this one). */
export async function findMove(client: ExchangeClient, move: Exclude<Move, ConvertMove>): Promise<Found | undefined> {
  const record = (await recordsOf(client, move)).filter((r) => r[ID_FIELD[move.kind]] === move.clientId).at(-1);
  return record === undefined ? undefined : foundOf(move, record);
}

/** A convert order by the quote it accepted; looked up from `since` (server ms), a page at a time. */
export async function findConvert(client: ExchangeClient, quoteId: string, since: number): Promise<Found | undefined> {
  const size = 100;
  for (let page = 1; page <= 20; page++) {
    const { data, total } = await client.convert.queryOrderHistory({ startTime: Math.max(0, Math.floor(since)), page, size });
    const record = data.find((o) => o.quoteId === quoteId);
    if (record !== undefined) {
      return { by: 'convert.queryOrderHistory', record, state: convertState(record.status), venueId: record.orderId, note: text(record.errorMessage) };
    }
    if (page * size >= total || data.length === 0) return undefined;
  }
  return undefined;
}
