/**
 * The JSON texts of a column of numbers, for writers that render many entries at once
 * (equity-columns.ts, plot-recorder.ts: JsonSlices.render): one JSON.stringify of the slice,
 * split. Printing each number alone (a template) would put every one in V8's number-string cache,
 * which keeps them past young collections (about 40 MB more peak RSS for a year of points).
 */

/** JSON.stringify's texts of slots [start, end) of a column; undefined if one is not finite (JSON prints it as null). */
export function numbersText(column: Float64Array | readonly number[], start: number, end: number): string[] | undefined {
  const text = JSON.stringify(column instanceof Float64Array ? Array.from(column.subarray(start, end)) : column.slice(start, end));
  if (text.includes('null')) return undefined;
  return text.slice(1, -1).split(',');
}
