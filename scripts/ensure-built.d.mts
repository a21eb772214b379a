/** Builds dist/ when bin/dist-fresh.mjs says it is not up to date (scripts/ensure-built.mjs); what was done. */
export declare function ensureBuilt(): 'dist/ up to date' | 'dist/ built first';
