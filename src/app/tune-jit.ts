/**
 * Side effect only, part of the process entry (main.ts's first import): V8's tiering settings
 * (jit-tuning.ts) and, for the bot commands, its young generation (bot-heap.ts), set before the
 * rest is evaluated.
 */
import { tuneBotHeap } from './bot-heap.ts';
import { tuneJit } from './jit-tuning.ts';

tuneJit(process.env);
tuneBotHeap(process.argv.slice(2), process.env);
