/**
 * The bot's rebalancer reads exchangeInfo (spec 4.1, a weight-heavy read) only for the symbols'
 * base and quote assets, which rarely change: it is kept for the run and read again after
 * `maxAgeMs` of the bot's clock (default one hour), or at once when a tick sees what the kept copy
 * does not explain (a ticker's symbol it does not list, an asset of the policy it does not know:
 * read-inputs.ts asks for a fresh one). Balances, tickers and convert pairs stay fresh each tick.
 * Concurrent callers share one request; a failed read is not kept.
 */
export class ExchangeInfoCache {
  private kept: { at: number; info: Promise<unknown> } | undefined;

  constructor(
    private readonly read: () => Promise<unknown>,
    private readonly now: () => number,
    private readonly maxAgeMs = 3_600_000,
  ) {}

  /** Keep a copy read elsewhere at `at` (the bot's start-up read), so the first tick need not read it again. */
  seed(info: unknown, at: number): void {
    this.kept = { at, info: Promise.resolve(info) };
  }

  /** The kept copy while younger than maxAgeMs; `fresh` reads the venue again whatever its age. */
  get(fresh = false): Promise<unknown> {
    const at = this.now();
    if (!fresh && this.kept !== undefined && at - this.kept.at < this.maxAgeMs) return this.kept.info;
    const info = this.read();
    const entry = { at, info };
    this.kept = entry;
    info.catch(() => {
      if (this.kept === entry) this.kept = undefined;
    });
    return info;
  }
}
