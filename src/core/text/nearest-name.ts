/**
 * The known name a misspelt one most likely meant ("did you mean ...?"): the CLI's unknown options
 * and commands, the config file's unknown keys. Pure.
 */

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const up = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, ((d[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = v;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * The name of `known` closest to `name`, ignoring case: at most 2 edits and fewer than half its
 * letters (a short name has no near miss), the first of equally close ones; undefined for none.
 */
export function nearestByEdits(name: string, known: Iterable<string>, skip: readonly string[] = []): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestD = Math.min(2, Math.floor((name.length - 1) / 2));
  for (const k of known) {
    if (skip.includes(k)) continue;
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestD || (d === bestD && best === undefined)) {
      best = k;
      bestD = d;
    }
  }
  return best;
}
