/** Public surface of the engine: the trading kernel (strategy runners + order manager + a venue port). */
export { Kernel } from './kernel.ts';
export type { IntentOrigin, KernelHooks, KernelOptions } from './kernel.ts';
