/** Side effect only: V8's tiering settings for the CLI process, set before the rest is evaluated (jit-tuning.ts). */
import { tuneJit } from './jit-tuning.ts';

tuneJit();
