/**
 * A plan's id and its moves' client ids (spec 4.2 `withdrawOrderId` max 30, 4.8 `internalOrderId`
 * digits only, 10-20, not starting with 0, 4.9 `clientTranId` / `clientRequestId`): derived from the
 * hash of the plan's inputs and the move's position, so the same inputs give the same ids (an
 * executor that journals them before sending finds a move again by its id, never sends it twice).
 */
import { createHash } from 'node:crypto';

/** sha256 of a canonical JSON (keys sorted), first 16 hex digits. */
export function planIdOf(inputs: unknown): string {
  return createHash('sha256').update(canonical(inputs)).digest('hex').slice(0, 16);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  if (v instanceof Map) return canonical(Object.fromEntries(v));
  return JSON.stringify(v);
}

export type IdKind = 'convert' | 'transfer' | 'collect' | 'withdraw' | 'cash-out';
const LETTER: Record<IdKind, string> = { convert: 'x', transfer: 't', collect: 'c', withdraw: 'w', 'cash-out': 'f' };

/** `tp<plan id>` + kind letter + 3-digit position: 22 characters of [a-z0-9]. */
export function clientIdOf(planId: string, kind: IdKind, index: number): string {
  if (kind === 'cash-out') return cashOutIdOf(planId, index);
  return `tp${planId}${LETTER[kind]}${String(index).padStart(3, '0')}`;
}

/** Spec 4.8 internalOrderId: `1`, 15 digits of the plan id, 3 of the position: 19 digits. */
function cashOutIdOf(planId: string, index: number): string {
  const digits = (BigInt(`0x${planId}`) % 10n ** 15n).toString().padStart(15, '0');
  return `1${digits}${String(index).padStart(3, '0')}`;
}
