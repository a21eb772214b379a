/**
 * The treasury needs the master account's key (spec 4.9: "Master-only endpoints apply to master
 * accounts; sub-only endpoints to sub-accounts"; the sub-account list, asset and universal
 * transfer the planner and executor use are all master-only). A sub-account's key would pass the
 * bot's other start-up checks (its own account reads fine) and then fail every rebalance, so the
 * key is told apart before anything runs, with the spec's endpoints only:
 *
 *   1. GET /openapi/v1/sub-account/list (master, weight 1): answered -> a master's key, done;
 *   2. refused -1152 NO_PERMISSION (spec 7.3; protocol notes: "-1152 no permission"): the key may
 *      be a sub-account's, or one without the right to sub-account endpoints. The sub-only
 *      GET /openapi/v1/sub-account/transfer/sub-history (limit 1) tells them apart: it answers only
 *      a sub-account's key.
 *
 * Either refusal is a ConfigError on the `treasury` key (exit 2, like the other config errors);
 * anything else (the venue unreachable, a rate limit) is passed on as it came.
 */
import { ConfigError } from '../../config/errors.ts';
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import { ExchangeError } from '../../exchange/errors/errors.ts';

const NO_PERMISSION = -1152;

/** Resolves when `client`'s key is a master account's; a ConfigError naming `treasury` otherwise. */
export async function requireMasterKey(client: ExchangeClient, source: string): Promise<void> {
  try {
    await client.subAccount.list({ limit: 1 });
    return;
  } catch (e) {
    if (!refused(e)) throw e;
    const listAnswer = `GET /openapi/v1/sub-account/list (master-only) answered ${NO_PERMISSION}: ${(e as ExchangeError).venueMessage ?? (e as Error).message}`;
    let subOnlyAnswered: boolean;
    try {
      await client.subAccount.subTransferHistory({ limit: 1 });
      subOnlyAnswered = true;
    } catch (e2) {
      if (!refused(e2)) throw e2;
      subOnlyAnswered = false;
    }
    throw new ConfigError(source, [
      subOnlyAnswered
        ? `treasury: the API key belongs to a sub-account (${listAnswer}; the sub-only sub-history answered it): treasury moves (sub-account balances and transfers) need the master account's key in HALYARD_API_KEY / HALYARD_API_SECRET`
        : `treasury: the API key may not use the master's sub-account endpoints (${listAnswer}): treasury moves need the master account's key, with access to its sub-accounts, in HALYARD_API_KEY / HALYARD_API_SECRET`,
    ]);
  }
}

function refused(e: unknown): boolean {
  return e instanceof ExchangeError && e.venueCode === NO_PERMISSION;
}
