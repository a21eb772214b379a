/**
 * Whether a handler can read one of its arguments: what lets the runner skip building a value
 * nobody can observe (the frozen Bar of `onBar(ctx)`, built every bar of a year-long backtest).
 *
 * Conservative: the answer is false only when the handler's own source shows a parameter list of
 * fewer plain names than the argument's position (no rest, default or destructuring), does not
 * mention `arguments`, and the function has no own `arguments` property (a sloppy-mode function,
 * whose arguments another function could reach through `caller`). Anything it cannot read (a
 * bound or native function, a computed method name, a comment in the parameter list) answers
 * true: the value is built, as before.
 */

/** `name(a, b) {`, `function name(a) {`, `async (a) =>`, `*name(a) {`: the text between the parentheses. */
const PARENS = /^(?:async\s+)?(?:function\s*\*?\s*[\w$]*\s*|\*?\s*[\w$]+\s*)?\(([^()]*)\)\s*(?:=>|\{)/;
/** `a => ...`, `async a => ...`. */
const BARE_ARROW = /^(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/;
const NAME = /^[A-Za-z_$][\w$]*$/;

/** True unless `fn` provably cannot read its argument at `index` (0-based). */
export function readsArgument(fn: (...args: never[]) => unknown, index: number): boolean {
  if (fn.length > index) return true;
  if (Object.prototype.hasOwnProperty.call(fn, 'arguments')) return true;
  let source: string;
  try {
    source = Function.prototype.toString.call(fn);
  } catch {
    return true;
  }
  // A bound or native function shows no source: its target may take the argument.
  if (/\barguments\b/.test(source) || /\[native code\]/.test(source)) return true;
  const arrow = BARE_ARROW.exec(source);
  let names: string[];
  if (arrow) names = [arrow[1] as string];
  else {
    const m = PARENS.exec(source);
    if (!m) return true;
    const list = (m[1] as string).trim();
    names = list === '' ? [] : list.split(',').map((p) => p.trim());
  }
  if (!names.every((n) => NAME.test(n))) return true;
  return names.length > index;
}
