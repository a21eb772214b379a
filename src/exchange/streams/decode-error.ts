/**
 * A stream payload that is not the shape protocol notes 4 / 4.1 describe. It names the event type,
 * the field (a path such as `outboundAccountPosition.B[1].f`) and the reason, so the caller can log
 * one line and go on with the next frame: a bad frame never stops a stream.
 */
import { HalyardError } from '../errors/errors.ts';

export class DecodeError extends HalyardError {
  /** `executionReport`, `depthUpdate`, ... or `event` when the type itself is unknown. */
  readonly eventType: string;
  /** The wire key path inside the event (`i`, `b[3][1]`), or `e` for the type. */
  readonly field: string;
  readonly reason: string;
  constructor(eventType: string, field: string, reason: string) {
    super('STREAM_DECODE', `${eventType}.${field}: ${reason}`);
    this.eventType = eventType;
    this.field = field;
    this.reason = reason;
  }
}
