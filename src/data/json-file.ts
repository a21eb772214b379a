/**
 * Writing a large value as a JSON file without building the whole text: the bytes
 * `JSON.stringify(value, replacer, 2)` would give, written a piece at a time.
 *
 * Why: a backtest's JSON holds one equity point per bar. A year of 1-minute bars is about 70 MB of
 * text, held twice at the peak by `writeFile(JSON.stringify(...))` (the string, then its bytes);
 * past about 3.9 million bars (7 years of 1-minute bars) the text would pass V8's longest string
 * (2^29 - 24 characters) and the run, computed in full, would end in a RangeError with nothing
 * written. Here the large arrays and objects are walked and their entries stringified (an
 * array's, a slice at a time where no replacer has to see them one by one) into a buffer that is
 * flushed to the file at about 1 MB.
 *
 * Same output as JSON.stringify (or, with `entryPerLine`, the same value with each entry of a
 * large array on a line of its own: a year's equity points in about a third of the bytes), with one difference no value written here shows: a `toJSON`
 * method of a value inside a walked container gets the key '' or its index in a slice
 * (JSON.stringify passes the property's key). A replacer is called for every value with the key
 * and holder JSON.stringify would give it, except one declared `onlyNonFinite`, which sees only
 * the entries whose text could hold a non-finite number. Cycles are not detected (JSON.stringify
 * throws on them; here the walk would not end); the values written here have none. A JsonSlices
 * (`jsonSlices`) is written as the array of its entries; a replacer sees each entry with its
 * index in the slice that made it as the key, and that slice as the holder.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

export type JsonReplacer = (this: unknown, key: string, value: unknown) => unknown;

/** Containers with fewer entries than this, and none such inside, are stringified whole (cheaper than walking them). */
const WALK_FROM = 64;
/** Buffered characters that trigger a write. */
const FLUSH_AT = 1 << 20;
const INDENT = '  ';

const SLICES = Symbol('halyard.jsonSlices');

/**
 * An array writeJsonFile writes without it ever existing whole: `length` entries, made
 * `slice(start, end)` at a time (at most BATCH of them) and written as JSON.stringify writes an
 * array of them. A backtest's equity curve: a point a bar, kept as number columns (a year of
 * 1-minute bars made into objects is about 50 MB of heap for the time of the write).
 */
export interface JsonSlices {
  readonly length: number;
  slice(start: number, end: number): unknown[];
  /**
   * Optional: the text writeJsonFile would write for entries [start, end), made directly. Each
   * entry is `\n` + `pad` + its JSON.stringify(entry, undefined, unit) text with its inner lines
   * indented by `pad`; entries are separated by commas. Undefined where it cannot (the slice is
   * then written from `slice`).
   */
  render?(start: number, end: number, pad: string, unit: string): string | undefined;
}

/** A JsonSlices for writeJsonFile (JSON.stringify itself would not know it for an array). */
export function jsonSlices(length: number, slice: (start: number, end: number) => unknown[], render?: JsonSlices['render']): JsonSlices {
  return { [SLICES]: true, length, slice, ...(render === undefined ? {} : { render }) } as JsonSlices;
}

function isSlices(v: unknown): v is JsonSlices {
  return typeof v === 'object' && v !== null && (v as Record<symbol, unknown>)[SLICES] === true;
}

/** A plain array or object JSON.stringify would walk itself (no toJSON of its own). */
function walkable(v: unknown): v is Record<string, unknown> | unknown[] {
  return typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

class ChunkedFile {
  private buffer = '';
  /** The bytes of a flush, reused: writing the string itself encodes it into a new buffer each time. */
  private bytes = Buffer.allocUnsafe(0);

  constructor(private readonly fd: number) {}

  write(text: string): void {
    this.buffer += text;
    if (this.buffer.length >= FLUSH_AT) this.flush();
  }

  flush(): void {
    const text = this.buffer;
    if (text.length === 0) return;
    // UTF-8 takes at most 3 bytes per UTF-16 unit (a surrogate pair, 2 units, takes 4).
    if (this.bytes.length < text.length * 3) this.bytes = Buffer.allocUnsafe(Math.max(text.length * 3, FLUSH_AT * 3));
    const n = this.bytes.write(text, 0, 'utf8');
    writeSync(this.fd, this.bytes, 0, n);
    this.buffer = '';
  }
}

/** Indentation of nesting level `depth`. */
function pad(depth: number): string {
  return INDENT.repeat(depth);
}

/** Where the next root call of a Rooted's replacer is answered from (reset before each JSON.stringify). */
interface RootCall {
  holder: unknown;
  key: string;
  /** A replaced value to answer with instead of calling the replacer (a container already replaced). */
  replaced: unknown;
  hasReplaced: boolean;
  atRoot: boolean;
}

/** The replacer JSON.stringify is given: its root call answered from `root`, the others passed on. */
function rootedReplacer(replacer: JsonReplacer, root: RootCall): JsonReplacer {
  return function (this: unknown, key: string, value: unknown): unknown {
    if (!root.atRoot) return replacer.call(this, key, value);
    root.atRoot = false;
    return root.hasReplaced ? root.replaced : replacer.call(root.holder, root.key, value);
  };
}

/**
 * JSON.stringify of one value found at `holder[key]`, the replacer's first call (JSON.stringify's
 * root call, key '') answered as the call at that key and holder; one instance for the whole
 * write (JSON.stringify is synchronous), so an element costs no closure.
 */
class Rooted {
  private readonly root: RootCall = { holder: undefined, key: '', replaced: undefined, hasReplaced: false, atRoot: true };
  private readonly fn: JsonReplacer;

  constructor(
    replacer: JsonReplacer,
    /** The replacer changes nothing but non-finite numbers (JsonFileOptions.onlyNonFinite). */
    private readonly onlyNonFinite: boolean,
  ) {
    this.fn = rootedReplacer(replacer, this.root);
  }

  /** The text of `holder[key]` (undefined where JSON.stringify writes nothing), indented for `depth` (`unit` per level: INDENT, or '' for one line). */
  text(holder: unknown, key: string, value: unknown, depth: number, unit: string): string | undefined {
    if (this.onlyNonFinite) {
      // Without the replacer (JSON.stringify's fast path) unless a non-finite number may be there: it would print null.
      const plain = JSON.stringify(value, undefined, unit) as string | undefined;
      if (plain === undefined || !plain.includes('null')) return indent(plain, depth);
    }
    const r = this.root;
    r.holder = holder;
    r.key = key;
    r.hasReplaced = false;
    r.atRoot = true;
    return indent(JSON.stringify(value, this.fn, unit) as string | undefined, depth);
  }

  /** The text of a value the replacer already gave for `holder[key]`: not replaced again at the root. */
  textOfReplaced(value: unknown, depth: number, unit: string): string | undefined {
    const r = this.root;
    r.replaced = value;
    r.hasReplaced = true;
    r.atRoot = true;
    const text = JSON.stringify(value, this.fn, unit) as string | undefined;
    r.replaced = undefined;
    return indent(text, depth);
  }
}

/** JSON.stringify's text of a value at nesting level `depth` (its own lines indented to it). */
function indent(text: string | undefined, depth: number): string | undefined {
  if (text === undefined || depth === 0 || !text.includes('\n')) return text;
  return text.replace(/\n/g, `\n${pad(depth)}`);
}

/** The walk's state: where the text goes and the replacer (with its root-call adapter). */
interface Walk {
  readonly out: ChunkedFile;
  readonly replacer: JsonReplacer | undefined;
  readonly rooted: Rooted | undefined;
  /** No replacer, or one that changes only non-finite numbers: array elements may be stringified a slice at a time. */
  readonly batches: boolean;
  /** The indentation unit of a walked array's entries: INDENT, or '' (JsonFileOptions.entryPerLine: each on one line). */
  readonly entryUnit: string;
}

/** Levels below a container searched for a large one (a run's equity sits two below the file's root, a plotted line's points four). */
const LOOK_DOWN = 4;

/**
 * Whether to walk a container rather than stringify it whole: it has WALK_FROM entries or more,
 * or holds such a container within LOOK_DOWN levels (the { run, metrics } around a run's equity).
 * Reads the entries in place (no key or value arrays: it runs for every element of a walked array).
 */
function large(v: Record<string, unknown> | unknown[], levels: number): boolean {
  // Only the walk can write one (JSON.stringify would see an object): walked whatever its length.
  if (isSlices(v)) return true;
  if (Array.isArray(v)) {
    if (v.length >= WALK_FROM) return true;
    if (levels > 0) for (const child of v) if (walkable(child) && large(child, levels - 1)) return true;
    return false;
  }
  let entries = 0;
  for (const key in v) {
    if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
    if (++entries >= WALK_FROM) return true;
    const child = v[key];
    if (levels > 0 && walkable(child) && large(child, levels - 1)) return true;
  }
  return false;
}

/** Whether `v` is an entry a walk must go into (a large container). */
function mustWalk(v: unknown): boolean {
  return walkable(v) && large(v, LOOK_DOWN);
}

/** What `textOf` answers for a large container the replacer left as it is: write it entry by entry. */
const WALK = Symbol('walk');

/** The text of `holder[key]` at `depth` (undefined where JSON.stringify writes none), or WALK; `unit` indents what is stringified whole. */
function textOf(w: Walk, holder: Record<string, unknown> | unknown[], key: string, depth: number, unit: string): string | undefined | typeof WALK {
  const raw = (holder as Record<string, unknown>)[key];
  if (!mustWalk(raw)) {
    return w.rooted === undefined ? indent(JSON.stringify(raw, undefined, unit) as string | undefined, depth) : w.rooted.text(holder, key, raw, depth, unit);
  }
  const v = w.replacer === undefined ? raw : w.replacer.call(holder, key, raw);
  // The replacer gave something else for this container: stringified whole, not replaced again.
  if (v !== raw) return (w.rooted as Rooted).textOfReplaced(v, depth, unit);
  return WALK;
}

/** Write what `textOf` answered for `holder[key]`. */
function emit(w: Walk, holder: Record<string, unknown> | unknown[], key: string, depth: number, text: string | typeof WALK): void {
  if (text === WALK) walk(w, (holder as Record<string, unknown>)[key] as Record<string, unknown> | unknown[], depth);
  else w.out.write(text);
}

/** Array entries stringified at once, where no replacer has to see them one by one (Walk.batches). */
const BATCH = 1024;

/** Element `i` of an array at `depth`, after its separator; returns the next index. */
function element(w: Walk, value: unknown[], i: number, depth: number): number {
  w.out.write(`\n${pad(depth + 1)}`);
  const key = String(i);
  const text = textOf(w, value, key, depth + 1, w.entryUnit);
  if (text === undefined) w.out.write('null');
  else emit(w, value, key, depth + 1, text);
  return i + 1;
}

/**
 * Elements from `i` of an array at `depth`, after the separator: up to BATCH of them that need no
 * walk, as one JSON.stringify of their slice (re-indented: the slice's elements sit one level in,
 * as they do in the array), or the element at `i` alone when it must be walked or the slice's
 * text may hold a non-finite number for the replacer. Returns the next index.
 */
function batch(w: Walk, value: unknown[], i: number, depth: number): number {
  let j = i;
  while (j < value.length && j - i < BATCH && !mustWalk(value[j])) j++;
  if (j === i) return element(w, value, i, depth);
  if (w.entryUnit === '') return lines(w, value, i, j, depth);
  const text = JSON.stringify(value.slice(i, j), undefined, 2);
  if (w.replacer !== undefined && text.includes('null')) {
    for (let k = i; k < j; k++) {
      if (k > i) w.out.write(',');
      element(w, value, k, depth);
    }
    return j;
  }
  // "[\n  a,\n  b\n]" -> "\n<pad+1>a,\n<pad+1>b": the brackets off, every line moved in by `depth`.
  const body = text.slice(1, text.length - 2);
  w.out.write(depth === 0 ? body : body.replace(/\n/g, `\n${pad(depth)}`));
  return j;
}

/**
 * `batch` with entries one a line (JsonFileOptions.entryPerLine): elements [i, j) of an array at
 * `depth`, each stringified without indentation (an entry JSON cannot print is null, as in an
 * array), or one by one through `element` where the replacer must see a possible non-finite number.
 */
function lines(w: Walk, value: unknown[], i: number, j: number, depth: number): number {
  const texts = new Array<string>(j - i);
  let nulls = false;
  for (let k = i; k < j; k++) {
    const text = (JSON.stringify(value[k]) as string | undefined) ?? 'null';
    if (text.includes('null')) nulls = true;
    texts[k - i] = text;
  }
  if (w.replacer !== undefined && nulls) {
    for (let k = i; k < j; k++) {
      if (k > i) w.out.write(',');
      element(w, value, k, depth);
    }
    return j;
  }
  const inner = `\n${pad(depth + 1)}`;
  w.out.write(`${inner}${texts.join(`,${inner}`)}`);
  return j;
}

/** A JsonSlices, as `walk` writes an array: its slices made one after the other, each written as the array's entries. */
function walkSlices(walkOf: Walk, value: JsonSlices, depth: number): void {
  const n = value.length;
  if (n === 0) return walkOf.out.write('[]');
  // A short one is written as its array would be (not large: indented whole), entry per line or not.
  const w = n < WALK_FROM && walkOf.entryUnit !== INDENT ? { ...walkOf, entryUnit: INDENT } : walkOf;
  w.out.write('[');
  const inner = pad(depth + 1);
  for (let i = 0; i < n; i += BATCH) {
    const end = Math.min(n, i + BATCH);
    // Where no replacer must see the entries one by one, their text made directly (when the source can).
    const text = w.batches ? value.render?.(i, end, inner, w.entryUnit) : undefined;
    if (text !== undefined) {
      w.out.write(i > 0 ? `,${text}` : text);
      continue;
    }
    const part = value.slice(i, end);
    for (let k = 0; k < part.length; ) {
      if (i + k > 0) w.out.write(',');
      k = w.batches ? batch(w, part, k, depth) : element(w, part, k, depth);
    }
  }
  w.out.write(`\n${pad(depth)}]`);
}

/** A large array or object, entry by entry. */
function walk(w: Walk, value: Record<string, unknown> | unknown[], depth: number): void {
  if (isSlices(value)) return walkSlices(w, value, depth);
  const out = w.out;
  const inner = pad(depth + 1);
  if (Array.isArray(value)) {
    if (value.length === 0) return out.write('[]');
    out.write('[');
    for (let i = 0; i < value.length; ) {
      if (i > 0) out.write(',');
      i = w.batches ? batch(w, value, i, depth) : element(w, value, i, depth);
    }
    return out.write(`\n${pad(depth)}]`);
  }
  let first = true;
  for (const key of Object.keys(value)) {
    const text = textOf(w, value, key, depth + 1, INDENT);
    if (text === undefined) continue;
    out.write(`${first ? '{' : ','}\n${inner}${JSON.stringify(key)}: `);
    first = false;
    emit(w, value, key, depth + 1, text);
  }
  out.write(first ? '{}' : `\n${pad(depth)}}`);
}

export interface JsonFileOptions {
  /** As JSON.stringify's. */
  readonly replacer?: JsonReplacer;
  /**
   * The replacer changes nothing but non-finite numbers (as metrics-json.ts jsonReplacer, which
   * writes them as strings): an entry whose text without it has no `null` (where JSON.stringify
   * prints a non-finite number) is written as that text, on JSON.stringify's fast path.
   */
  readonly onlyNonFinite?: boolean;
  /**
   * Each entry of a large array (walked: WALK_FROM entries or more) on one line of its own, its
   * JSON.stringify text without indentation; everything else as JSON.stringify(value, replacer, 2).
   * The same value when parsed, in about half the bytes for a backtest (an equity point takes one
   * line instead of five), and still a line an entry for diff and grep.
   */
  readonly entryPerLine?: boolean;
}

/**
 * Write `JSON.stringify(value, replacer, 2)` to `file` (created or truncated) a piece at a time;
 * with `entryPerLine`, a large array's entries one a line instead. Throws TypeError where JSON.stringify would (a BigInt), with the file left partly written.
 */
export function writeJsonFile(file: string, value: unknown, options: JsonFileOptions = {}): void {
  const { replacer } = options;
  const fd = openSync(file, 'w');
  try {
    const out = new ChunkedFile(fd);
    const onlyNonFinite = options.onlyNonFinite === true;
    const w: Walk = {
      out,
      replacer,
      rooted: replacer === undefined ? undefined : new Rooted(replacer, onlyNonFinite),
      batches: replacer === undefined || onlyNonFinite,
      entryUnit: options.entryPerLine === true ? '' : INDENT,
    };
    const holder = { '': value };
    const text = textOf(w, holder, '', 0, INDENT);
    if (text === undefined) throw new TypeError('writeJsonFile: the value has no JSON text (undefined, a function or a symbol)');
    emit(w, holder, '', 0, text);
    out.flush();
  } finally {
    closeSync(fd);
  }
}
