/** The sandbox's sub-account area (spec 4.9): see plugin.ts. */
export { subAccountPlugin } from './plugin.ts';
export type { SubAccountArea } from './area-state.ts';
export { SETTLE_DELAY_MS } from './collection-store.ts';
