/**
 * A venue message the live adapter cannot turn into venue events: a decoded payload whose fields
 * contradict each other (a TRADE report without a trade id, a CANCELED report whose status is
 * NEW). It names the source and the field, so the adapter logs the reason and resyncs instead of
 * guessing (project rule: bad input gets a clear error naming the field and the reason).
 */
export class VenueMappingError extends Error {
  constructor(
    /** executionReport, newOrder, queryOrder, myTrades ... */
    readonly source: string,
    /** The field at fault, in the source's own naming (`X`, `t`, `fills[2].qty`, `status`). */
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${source}.${field}: ${reason}`);
    this.name = 'VenueMappingError';
  }
}
