/**
 * JSON as the venue writes it (spec 1.4, notes 5.1): order ids, trade ids and times are JSON
 * numbers, and ids exceed 2^53. Values of type `bigint` are written as bare integer literals, so
 * `{ orderId: 1375445991893797391n }` becomes `{"orderId":1375445991893797391}` exactly.
 */
// JSON.stringify escapes the NUL as the six characters \u0000, which no ordinary string produces
// next to this tag, so the marked values are found again unambiguously.
const MARK = '\u0000#big:';
const MARKED = /"\\u0000#big:(-?\d+)"/g;

/** Serialise with bigints as raw numbers. Strings that happen to contain digits are untouched. */
export function stringifyWire(value: unknown): string {
  let sawBig = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') {
      sawBig = true;
      return `${MARK}${v.toString()}`;
    }
    return v;
  });
  if (text === undefined) return 'null';
  return sawBig ? text.replace(MARKED, '$1') : text;
}

/** An id kept as a decimal string in state, written as a JSON number on the wire. */
export function wireId(id: string | number | bigint): bigint {
  return typeof id === 'bigint' ? id : BigInt(id);
}
