/**
 * Fills (account trades, spec 2.5), unique by (symbol, trade id, side): writing the same fill twice
 * is a no-op, so the user stream and a REST resync after a gap (design notes: the stream is lossy)
 * can both write every fill they see without double counting. The side is part of the key because
 * one trade id is two account trades, the BUY and the SELL, and both may be journaled (a self-trade,
 * or two accounts in one journal; schema 3).
 */
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { fromJsonOrNull, toJsonOrNull } from './json-column.ts';
import { requireMoneyText } from './money-text.ts';
import { guardWrite } from './write-guard.ts';

export interface FillRecord {
  symbol: string;
  /** Decimal digits; exceeds 2^53 on the real service. */
  tradeId: string;
  runId: string | null;
  clientOrderId: string | null;
  exchangeOrderId: string | null;
  side: 'BUY' | 'SELL';
  price: string;
  qty: string;
  quoteQty: string;
  commission: string;
  commissionAsset: string;
  isMaker: boolean;
  time: number;
  raw: unknown;
}

export type NewFill = Omit<FillRecord, 'runId' | 'clientOrderId' | 'exchangeOrderId' | 'raw'> &
  Partial<Pick<FillRecord, 'runId' | 'clientOrderId' | 'exchangeOrderId' | 'raw'>>;

export interface FillQuery {
  symbol?: string;
  runId?: string;
  clientOrderId?: string;
  /** Fill time in [from, to). */
  from?: number;
  to?: number;
}

type FillRow = {
  symbol: string;
  trade_id: string;
  run_id: string | null;
  client_order_id: string | null;
  exchange_order_id: string | null;
  side: 'BUY' | 'SELL';
  price: string;
  qty: string;
  quote_qty: string;
  commission: string;
  commission_asset: string;
  is_maker: number;
  time: number;
  raw: string | null;
};

const FILL_MONEY = ['price', 'qty', 'quoteQty', 'commission'] as const;

/** Numeric order of decimal-digit ids held as text: shorter is smaller, then lexicographic. */
const ID_ASC = 'length(trade_id), trade_id';
const ID_DESC = 'length(trade_id) DESC, trade_id DESC';

export class FillStore {
  private readonly insertFill: Statement;
  private readonly selectLast: Statement;
  private readonly selectQuery: Statement;
  private readonly selectCount: Statement;
  private readonly insertManyTx: Transaction<(fills: readonly NewFill[]) => number>;
  private current: NewFill | undefined;

  constructor(
    db: Database,
    private readonly file: string,
  ) {
    this.insertFill = db.prepare(`
      INSERT INTO fills (symbol, trade_id, run_id, client_order_id, exchange_order_id, side, price, qty, quote_qty,
                         commission, commission_asset, is_maker, time, raw)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (symbol, trade_id, side) DO NOTHING`);
    this.selectLast = db.prepare(`SELECT trade_id FROM fills WHERE symbol = ? ORDER BY ${ID_DESC} LIMIT 1`).pluck(true);
    this.selectQuery = db.prepare(`
      SELECT * FROM fills
      WHERE (@symbol IS NULL OR symbol = @symbol) AND (@runId IS NULL OR run_id = @runId)
        AND (@clientOrderId IS NULL OR client_order_id = @clientOrderId) AND time >= @from AND time < @to
      ORDER BY time, symbol, ${ID_ASC}, side`);
    this.selectCount = db.prepare('SELECT count(*) FROM fills').pluck(true);
    this.insertManyTx = db.transaction((fills: readonly NewFill[]) => {
      let inserted = 0;
      for (const f of fills) {
        this.current = f;
        inserted += this.write(f);
      }
      return inserted;
    });
  }

  private write(f: NewFill): number {
    requireMoneyText(this.file, () => describe(f), f, FILL_MONEY);
    return this.insertFill.run(
      f.symbol,
      f.tradeId,
      f.runId ?? null,
      f.clientOrderId ?? null,
      f.exchangeOrderId ?? null,
      f.side,
      f.price,
      f.qty,
      f.quoteQty,
      f.commission,
      f.commissionAsset,
      f.isMaker ? 1 : 0,
      f.time,
      toJsonOrNull(f.raw),
    ).changes;
  }

  /** Record one fill; false when this (symbol, trade id, side) was already journaled (nothing changes). */
  insert(fill: NewFill): boolean {
    return guardWrite(this.file, () => describe(fill), () => this.write(fill) === 1);
  }

  /** Record many fills in one transaction; returns how many were new. */
  insertMany(fills: readonly NewFill[]): number {
    this.current = undefined;
    return guardWrite(this.file, () => describe(this.current), () => this.insertManyTx(fills));
  }

  /** The highest trade id journaled for a symbol: where a REST resync (`fromId`) starts. */
  lastTradeId(symbol: string): string | undefined {
    return (this.selectLast.get(symbol) as string | undefined) ?? undefined;
  }

  /** Fills matching every given field, oldest first. */
  list(query: FillQuery = {}): FillRecord[] {
    const rows = this.selectQuery.all({
      symbol: query.symbol ?? null,
      runId: query.runId ?? null,
      clientOrderId: query.clientOrderId ?? null,
      from: query.from ?? Number.MIN_SAFE_INTEGER,
      to: query.to ?? Number.MAX_SAFE_INTEGER,
    }) as FillRow[];
    return rows.map(toFill);
  }

  count(): number {
    return this.selectCount.get() as number;
  }
}

function toFill(r: FillRow): FillRecord {
  return {
    symbol: r.symbol,
    tradeId: r.trade_id,
    runId: r.run_id,
    clientOrderId: r.client_order_id,
    exchangeOrderId: r.exchange_order_id,
    side: r.side,
    price: r.price,
    qty: r.qty,
    quoteQty: r.quote_qty,
    commission: r.commission,
    commissionAsset: r.commission_asset,
    isMaker: r.is_maker === 1,
    time: r.time,
    raw: fromJsonOrNull(r.raw),
  };
}

function describe(f: NewFill | undefined): string {
  return f ? `fill ${f.symbol} trade ${f.tradeId}` : 'fill';
}
