/** Shared set-up for the auth unit tests: a registry holding the official test-vector key (notes 3). */
import { AccountRegistry } from '../accounts/registry.ts';
import { parseSandboxConfig } from '../config/load.ts';
import type { SandboxConfig, SandboxConfigInput } from '../config/schema.ts';
import type { ApiKeyRecord } from '../contracts.ts';

export const VECTOR_KEY = 'tAQfOrPIZAhym0qHISRt8EFvxPemdBm5j5WMlkm3Ke9aFp0EGWC2CGM8GHV4kCYW';
export const VECTOR_SECRET = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';

export function vectorSetup(configInput: SandboxConfigInput = {}, key: Partial<ApiKeyRecord> = {}): { accounts: AccountRegistry; config: SandboxConfig; uid: string } {
  const config = parseSandboxConfig({ accounts: [], ...configInput });
  const accounts = new AccountRegistry({ maxSubAccounts: 30 });
  const account = accounts.createAccount({ email: 'vector@example.com', createdAt: 0 });
  accounts.createKey({ accountId: account.id, apiKey: VECTOR_KEY, secret: VECTOR_SECRET, createdAt: 0, ...key });
  return { accounts, config, uid: account.id };
}
