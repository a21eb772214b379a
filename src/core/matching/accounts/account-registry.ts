/** The engine's account states, per account then per symbol, created on first use. */
import type { Balances } from '../../portfolio/balances.ts';
import { AccountBook } from './account-book.ts';
import type { SymbolBook } from '../book/symbol-book.ts';

export class AccountRegistry {
  private readonly byAccount = new Map<string, Map<string, AccountBook>>();
  /** Per account, its books as one array (AccountBook.siblings). */
  private readonly lists = new Map<string, AccountBook[]>();

  constructor(private readonly balances: Balances) {}

  /** The account's state on the symbol, created (with its balance entries) on first use. */
  get(accountId: string, sb: SymbolBook): AccountBook {
    // One lookup on the hot path: the book keeps its accounts too.
    const known = sb.accounts.get(accountId);
    if (known !== undefined) return known;
    let bySymbol = this.byAccount.get(accountId);
    if (bySymbol === undefined) this.byAccount.set(accountId, (bySymbol = new Map()));
    let acct = bySymbol.get(sb.spec.symbol);
    if (acct === undefined) {
      const b = this.balances;
      let siblings = this.lists.get(accountId);
      if (siblings === undefined) this.lists.set(accountId, (siblings = []));
      acct = new AccountBook(accountId, sb, b.entry(accountId, sb.spec.baseAsset), b.entry(accountId, sb.spec.quoteAsset), siblings);
      siblings.push(acct);
      bySymbol.set(sb.spec.symbol, acct);
    }
    sb.accounts.set(accountId, acct);
    return acct;
  }

  peek(accountId: string, symbol: string): AccountBook | undefined {
    return this.byAccount.get(accountId)?.get(symbol);
  }

  /** The account's states on `symbol`, or on every symbol. */
  list(accountId: string, symbol?: string): AccountBook[] {
    const bySymbol = this.byAccount.get(accountId);
    if (bySymbol === undefined) return [];
    if (symbol === undefined) return [...bySymbol.values()];
    const a = bySymbol.get(symbol);
    return a === undefined ? [] : [a];
  }
}
