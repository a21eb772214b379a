/** Side effect only, part of the process entry (main.ts's first import): V8's tiering settings, set before the rest is evaluated (jit-tuning.ts). */
import { tuneJit } from './jit-tuning.ts';

tuneJit(process.env);
