/**
 * Decimal parsing with a memo: one fill's amounts are parsed by several layers (the order
 * manager's account and order state, the strategy's Fill and OrderUpdate, the backtest's round
 * trips), always from the same strings, and intent amounts repeat (a fixed quoteOrderQty). A
 * Decimal is immutable, so one parsed value can be handed to all of them. Bounded: the memo is
 * dropped whole when full, so memory stays flat however many distinct amounts a run sees.
 *
 * Only for text already known to be a decimal (venue events the adapter checked, intents the
 * runner's schema checked): like `new D(text)`, no validation of its own.
 */
import { D } from '../money/decimal.ts';
import type { Dec } from '../money/decimal.ts';
import { plainDecimal } from '../money/plain-decimal.ts';
import { TextMemo } from '../money/text-memo.ts';

// Small on purpose: the hits are within one fill (a few layers, microseconds apart) and repeated
// intent amounts; a large memo would keep values alive long enough to be promoted (text-memo.ts).
const memo = new TextMemo<Dec>(64);
const ZERO = new D(0);

export function parsedDecimal(text: string): Dec {
  if (text === '0') return ZERO;
  const hit = memo.get(text);
  if (hit !== undefined) return hit;
  // Plain text (what venues print) without decimal.js's parser; anything else as new D(text) reads it.
  const d = plainDecimal(text) ?? new D(text);
  memo.set(text, d);
  return d;
}

/**
 * The memo's Decimal for `text` when it holds one (undefined otherwise): the text was parsed or
 * printed here before, so it is a decimal already checked; a caller that must validate input
 * can skip its own check on a hit.
 */
export function knownDecimal(text: string): Dec | undefined {
  if (text === '0') return ZERO;
  return memo.get(text);
}

/**
 * `d.toFixed()`, remembered as the parse of that text: an amount the order manager prints for a
 * strategy (an order update's executed quantity) is read back as this same Decimal, not parsed.
 */
export function decimalText(d: Dec): string {
  const text = d.toFixed();
  if (text === '0' || text === '-0') return text;
  memo.set(text, d);
  return text;
}
