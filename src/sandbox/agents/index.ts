/** Public surface of the sandbox's market agents (issue "Sandbox exchange", deliverable 6). */
export { marketAgentsPlugin, type MarketAgentsService } from './plugin.ts';
export {
  marketAgentsConfigSchema,
  parseMarketAgentsConfig,
  type MarketAgentsConfig,
  type MarketAgentsConfigInput,
  type MarketConfig,
  type SourceConfig,
} from './config.ts';
export type { MarketStats } from './agent-env.ts';
export { AGENT_EMAILS, type AgentAccounts } from './agent-accounts.ts';
export { expandBar, type BarPath, type UnitBar } from './bar-path.ts';
export { pathPoints, type PathOptions, type PathPoint } from './path-source.ts';
export { openBarSource, DEFAULT_CYCLE, DEFAULT_START_PRICE, type BarSource, type SourceBar } from './sources/index.ts';
export { MarketRules } from './market-rules.ts';
