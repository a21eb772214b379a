// The live-bot bench's floor (bench/bot-live.bench.ts): a Node process that loads nothing, its RSS
// after a full GC, forked with and without `--import tsx` (what Node alone costs, and tsx's loader).
globalThis.gc?.();
process.send?.({ rssMb: process.memoryUsage().rss / 2 ** 20 }, () => process.exit(0));
