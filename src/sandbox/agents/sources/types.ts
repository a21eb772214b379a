/**
 * Where a market's bars come from (issue "Sandbox exchange", deliverable 6): recorded klines (a
 * CSV file or the journal) or the seeded synthetic generator. Prices and volumes stay the source's
 * decimal text; the path turns them into ticks of the sandbox symbol.
 */

export interface SourceBar {
  readonly openTime: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
}

export interface BarSource {
  /** For logs and the status route: `csv:<file>`, `journal:<file> LINKUSDT 1m`, `synthetic`. */
  readonly label: string;
  /** Length of one source bar in ms (real-time playback plays a bar in this long). */
  readonly intervalMs: number;
  /** One pass over the bars, oldest first (endless for the synthetic source). Called again to loop. */
  bars(): Iterable<SourceBar>;
  /** Release files (the journal). */
  close(): void;
}
