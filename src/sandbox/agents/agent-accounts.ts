/**
 * The agents' sandbox accounts: ordinary master accounts without API keys (nobody can log in as
 * them), one for the liquidity agent and one for the taker (two, because self-trade prevention
 * would cancel a trade between orders of one account). Found by e-mail when they already exist (a
 * restored state file), created otherwise. Created when the sandbox has started, after the
 * configured accounts are seeded or restored, so they neither take a configured account's UID nor
 * get wiped by a state restore.
 */
import type { AccountRegistry } from '../accounts/registry.ts';

export const AGENT_EMAILS = {
  maker: 'market-maker@agents.sandbox.halyard.local',
  taker: 'market-taker@agents.sandbox.halyard.local',
} as const;

export interface AgentAccounts {
  readonly maker: string;
  readonly taker: string;
}

export function agentAccounts(registry: AccountRegistry, now: number): AgentAccounts {
  const ensure = (email: string) => (registry.findByEmail(email) ?? registry.createAccount({ email, createdAt: now })).id;
  return { maker: ensure(AGENT_EMAILS.maker), taker: ensure(AGENT_EMAILS.taker) };
}
