/**
 * The market around a `--kill` run's bot, made by the parent on the sandbox it runs in-process
 * (two paper accounts of its own): a maker's resting bids that the bot's MARKET sells fill at once,
 * and a taker that lifts the bot's resting asks (LIMIT IOC buys, so nothing of its own rests). The
 * taker runs while the bot trades and while it is dead ("lets the market move"), and stops before
 * each check so the venue holds still while it is read.
 */
import { createClient, type ClientHandle } from '../../app/create-client.ts';
import { parseConfig } from '../../config/load.ts';
import type { SandboxHandle } from '../../sandbox/server.ts';

export interface KillMarket {
  /** One IOC buy up to `price` for `quantity` (the bot's resting asks are what it can take). */
  lift(quantity?: string): Promise<void>;
  close(): Promise<void>;
}

export interface KillMarketOptions {
  readonly symbol: string;
  readonly bidPrice: string;
  readonly bidQuantity: string;
  readonly liftPrice: string;
  readonly liftQuantity: string;
}

function account(s: SandboxHandle, email: string, credit: Record<string, string>): ClientHandle {
  const now = s.clock.now();
  const a = s.accounts.createAccount({ email, createdAt: now });
  const key = s.accounts.createKey({ accountId: a.id, createdAt: now });
  for (const [asset, amount] of Object.entries(credit)) s.services.balances?.credit(a.id, asset, amount);
  return createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey: key.apiKey, apiSecret: key.secret } });
}

export async function startKillMarket(s: SandboxHandle, o: KillMarketOptions): Promise<KillMarket> {
  const maker = account(s, 'kill-maker@example.com', { PHP: '1000000000', BTC: '0' });
  const taker = account(s, 'kill-taker@example.com', { PHP: '1000000000' });
  await maker.client.spot.newOrder({ symbol: o.symbol, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: o.bidQuantity, price: o.bidPrice });
  return {
    async lift(quantity = o.liftQuantity) {
      await taker.client.spot.newOrder({ symbol: o.symbol, side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity, price: o.liftPrice });
    },
    async close() {
      await taker.close();
      await maker.close();
    },
  };
}
