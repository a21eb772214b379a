/** Public surface of the sandbox configuration. */
export { sandboxConfigSchema, keySchema } from './schema.ts';
export type { SandboxConfig, SandboxConfigInput, SandboxSymbolConfig, SandboxAssetConfig, SandboxAccountConfig, SandboxKeyConfig } from './schema.ts';
export { parseSandboxConfig, sandboxCrossChecks, ConfigError } from './load.ts';
export { exchangeInfoFromConfig, findSymbolConfig, type ExchangeInfoBody } from './exchange-info.ts';
export { DEMO_API_KEY, DEMO_API_SECRET, DEMO_EMAIL, DEMO_UID, DEMO_BALANCES, DEFAULT_BAN_SCHEDULE_MS } from './defaults.ts';
export { filterSchema, type SymbolFilterConfig } from './filters.ts';
