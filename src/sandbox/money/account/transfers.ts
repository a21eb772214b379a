/**
 * Account-to-account transfers (spec 2.9, 4.3 `POST transfer/v3/transfers`; notes 6 v4): from the
 * caller to another sandbox account found by e-mail or phone (contacts.ts).
 *
 * Parameter mistakes answer an error (HTTP 400): duplicate `client_transfer_id` of the sender
 * -1025; unknown `account` (asset code or crypto-account id) -1025; amount <= 0, finer than the
 * coin's transferPrecision or below transferMinQuantity -1025.
 * A transfer that cannot be carried out is answered HTTP 200 with a stored `failed` record and its
 * `errorMessage` (spec 2.9: errorMessage "carries the failure text when the transfer fails"):
 * unknown recipient, the sender itself, a frozen sender, an exceeded p2p limit, insufficient
 * balance. Nothing moves then; the record stays queryable by the sender and keeps its client id.
 * Success debits the sender and credits the recipient at once (ledger + balanceUpdate
 * P2P_TRANSFER on both accounts) and charges p2p cashOut (sender) and cashIn (recipient).
 * Records and the id counter are a persistent part (`account.transfers`): with `--state` they
 * survive a restart (ids are hashes of the counter, so it must continue, not restart).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { dec, toWire } from '../../../core/money/decimal.ts';
import { reservedIds, type IdSource } from '../../exchange-core/ids.ts';
import { venueErrors, type SandboxState } from '../../http/route-types.ts';
import { persistentPartsOf, refill, type Persistent } from '../../persistence/persistent-parts.ts';
import { zAmount, zTime } from '../../persistence/schema-kit.ts';
import { moveMoney } from '../ledger/move-money.ts';
import { findCoin, transferMinQuantity, transferPrecision } from '../wallet/coins.ts';
import { contactsOf } from './contacts.ts';
import { assetOfAccountParam } from './crypto-accounts.ts';
import { accountLimitsOf } from './limits.ts';
import { phpValue } from './valuation.ts';

export interface TransferRequest {
  client_transfer_id?: string | undefined;
  account: string;
  target_address: string;
  amount: string;
  message?: string | undefined;
  customSenderName?: string | undefined;
}

export interface TransferRecord {
  id: string;
  senderId: string;
  recipientId: string | undefined;
  clientTransferId: string | undefined;
  /** The `account` parameter as sent (asset code or crypto-account id). */
  account: string;
  asset: string;
  amount: string;
  sourceAddress: string;
  targetAddress: string;
  message: string | undefined;
  customSenderName: string | undefined;
  status: 'success' | 'failed';
  errorMessage: string | undefined;
  createdAt: number;
}

export interface TransfersState {
  /** The counter the next id is hashed from. */
  nextSeq: string;
  records: TransferRecord[];
}

const optional = z.string().optional();

// JSON drops undefined fields: they come back absent, which reads the same as undefined.
export const TRANSFERS_STATE = z.object({
  nextSeq: z.string().regex(/^\d+$/),
  records: z.array(
    z.object({
      id: z.string(),
      senderId: z.string(),
      recipientId: optional,
      clientTransferId: optional,
      account: z.string(),
      asset: z.string(),
      amount: zAmount,
      sourceAddress: z.string(),
      targetAddress: z.string(),
      message: optional,
      customSenderName: optional,
      status: z.enum(['success', 'failed']),
      errorMessage: optional,
      createdAt: zTime,
    }),
  ),
}) as z.ZodType<TransfersState>;

export class TransferBook implements Persistent<TransfersState> {
  private readonly records: TransferRecord[] = [];
  private readonly nextSeq: IdSource;

  constructor(private readonly state: SandboxState) {
    this.nextSeq = reservedIds(state.services, 'account.transfers', { startTimeMs: state.clock.now(), salt: 900_000n });
  }

  create(senderId: string, req: TransferRequest, now: number): TransferRecord {
    if (req.client_transfer_id !== undefined && this.records.some((r) => r.senderId === senderId && r.clientTransferId === req.client_transfer_id)) {
      throw venueErrors.invalidParam('client_transfer_id', `duplicate: ${req.client_transfer_id} was already used`);
    }
    const asset = assetOfAccountParam(this.state, senderId, req.account);
    if (asset === undefined) throw venueErrors.invalidParam('account', `unknown token or balance id ${req.account}`);
    const amount = this.checkAmount(asset, req.amount);
    const recipientId = contactsOf(this.state).resolve(this.state, req.target_address);
    const sender = this.state.accounts.getAccount(senderId);
    const record: TransferRecord = {
      id: createHash('md5').update(`transfer|${this.nextSeq()}`).digest('hex'),
      senderId,
      recipientId,
      clientTransferId: req.client_transfer_id,
      account: req.account,
      asset,
      amount,
      sourceAddress: sender?.email ?? '',
      targetAddress: req.target_address,
      message: req.message,
      customSenderName: req.customSenderName,
      status: 'failed',
      errorMessage: undefined,
      createdAt: now,
    };
    this.records.push(record);
    record.errorMessage = this.execute(record, now);
    if (record.errorMessage === undefined) record.status = 'success';
    return record;
  }

  dumpState(): TransfersState {
    return { nextSeq: this.nextSeq.peek(), records: this.records.map((r) => ({ ...r })) };
  }

  restoreState(data: TransfersState): void {
    refill(this.records, data.records);
    // peek() is the next counter value; skipPast moves beyond the one before it.
    this.nextSeq.skipPast((BigInt(data.nextSeq) - 1n).toString());
  }

  /** Records the account sees: its own sends (any status) and successful receipts. */
  visibleTo(accountId: string): TransferRecord[] {
    return this.records.filter((r) => r.senderId === accountId || (r.recipientId === accountId && r.status === 'success'));
  }

  private checkAmount(asset: string, text: string): string {
    const amount = dec(text, 'amount');
    if (!amount.gt(0)) throw venueErrors.invalidParam('amount', 'must be greater than 0');
    const coin = findCoin(this.state.config, asset);
    if (coin) {
      const places = transferPrecision(coin);
      if (amount.decimalPlaces() > places) throw venueErrors.invalidParam('amount', `at most ${places} decimals for ${asset} (transferPrecision)`);
      if (amount.lt(dec(transferMinQuantity(coin)))) throw venueErrors.invalidParam('amount', `below transferMinQuantity ${transferMinQuantity(coin)} ${asset}`);
    }
    return toWire(amount);
  }

  /** Moves the money; returns the failure text, or undefined on success. */
  private execute(r: TransferRecord, now: number): string | undefined {
    if (r.recipientId === undefined) return `Recipient not found: no account with e-mail or phone ${r.targetAddress}.`;
    if (r.recipientId === r.senderId) return 'Cannot transfer to your own account.';
    if (this.state.accounts.getAccount(r.senderId)?.frozen) return 'This action disabled is on this account.';
    const limits = accountLimitsOf(this.state);
    const php = phpValue(this.state.services, r.asset, r.amount);
    const out = limits.check(r.senderId, { book: 'p2p', kind: 'cashOut', amount: php, now });
    if (out) return `Transfer exceeds the ${out.period} transfer limit: ${out.remaining} PHP remaining.`;
    const into = limits.check(r.recipientId, { book: 'p2p', kind: 'cashIn', amount: php, now });
    if (into) return `Transfer exceeds the recipient's ${into.period} receiving limit.`;
    const free = this.state.services.balances?.get(r.senderId, r.asset).free ?? '0';
    if (dec(free).lt(dec(r.amount))) return `Balance insufficient: ${r.amount} ${r.asset} needed, ${free} free.`;
    const move = { asset: r.asset, bizSubject: 'P2P_TRANSFER', txId: r.id, time: now } as const;
    moveMoney(this.state, { ...move, accountId: r.senderId, delta: `-${r.amount}` });
    moveMoney(this.state, { ...move, accountId: r.recipientId, delta: r.amount });
    limits.charge(r.senderId, { book: 'p2p', kind: 'cashOut', amount: php, time: now });
    limits.charge(r.recipientId, { book: 'p2p', kind: 'cashIn', amount: php, time: now });
    return undefined;
  }
}

declare module '../../http/route-types.ts' {
  interface SandboxServices {
    transfers?: TransferBook;
  }
}

export function transfersOf(state: SandboxState): TransferBook {
  if (state.services.transfers === undefined) {
    const book = new TransferBook(state);
    state.services.transfers = book;
    persistentPartsOf(state.services).register('account.transfers', TRANSFERS_STATE, book);
  }
  return state.services.transfers;
}
