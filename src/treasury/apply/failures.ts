/**
 * What a failed call means for a move (spec 7.1, 7.6; the client's error outcomes):
 * - `unknown`: it may have moved money (5xx, timeout, an unreadable answer, fiat 88010000): look
 *   it up by its client id, never send it again;
 * - `not-sent`: it never left or the venue did not process it (a parameter refused here, no room
 *   in the weight budget, 429/418): nothing happened, a later apply may try again;
 * - `rejected`: the venue refused it (a business refusal, an envelope status): nothing happened,
 *   and the venue's words say why.
 */
import { ExchangeError, ParameterError, QueueTimeoutError } from '../../exchange/errors/errors.ts';

export type CallFailure =
  | { kind: 'unknown'; error: ExchangeError; text: string }
  | { kind: 'not-sent'; text: string }
  | { kind: 'rejected'; error: ExchangeError; text: string };

export function classifyFailure(e: unknown): CallFailure {
  if (e instanceof ParameterError) return { kind: 'not-sent', text: e.message };
  if (!(e instanceof ExchangeError)) throw e;
  if (e.outcome === 'unknown-outcome' || e.outcome === 'partial') return { kind: 'unknown', error: e, text: e.message };
  if (e instanceof QueueTimeoutError || e.outcome === 'rate-limited') return { kind: 'not-sent', text: e.message };
  return { kind: 'rejected', error: e, text: venueWords(e) };
}

/** The venue's code or envelope status with its message, else the error's own message. */
export function venueWords(e: ExchangeError): string {
  const code = e.envelopeStatus ?? e.venueCode;
  if (code !== undefined && e.venueMessage !== undefined) return `${e.endpoint}: ${code} ${e.venueMessage}`;
  return e.message;
}
