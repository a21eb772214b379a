/**
 * What the live venue tells the operator (the host writes it to its log): each entry names what
 * happened and why, so a dropped frame, a refused mapping or a resync can be traced afterwards.
 */
export interface VenueLogEntry {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  /** `stream`, `health`, `order`, `resync`, `mapping`, `foreign`, `duplicate`, `reconcile` ... */
  readonly topic: string;
  readonly message: string;
  readonly time: number;
  readonly detail?: unknown;
}

export type VenueLog = (entry: VenueLogEntry) => void;

export const silentLog: VenueLog = () => undefined;
