/**
 * Handlers of the `wallet.*` endpoints (spec 4.2, notes 6 address whitelist).
 *
 * Histories (rules 2-4): startTime defaults to 90 days before now (7 days when withdrawOrderId is
 * sent), endTime to now; bounds inclusive; oldest first; then `offset` / `limit` (default 0 / 1000).
 * The span rules themselves are checked by the endpoint table before the handler runs.
 * Deposit address of a network with deposits disabled: -1010.
 */
import { defineHandlers, VenueError, type HandlerContext } from '../../http/route-types.ts';
import { depositAddressFor } from './addresses.ts';
import { coinConfigHandler, requireNetwork } from './coins.ts';
import { depositWire } from './deposits.ts';
import { walletOf } from './wallet-service.ts';
import { whitelistWire } from './whitelist.ts';
import { withdrawalWire } from './withdrawals.ts';

const DAY_MS = 86_400_000;

const str = (ctx: HandlerContext, name: string) => (ctx.params[name] === undefined ? undefined : String(ctx.params[name]));
const num = (ctx: HandlerContext, name: string) => ctx.params[name] as number | undefined;
const accountOf = (ctx: HandlerContext) => ctx.account?.id ?? '';

export function walletWindow(ctx: HandlerContext, defaultSpanMs: number): { startTime: number; endTime: number } {
  return { startTime: num(ctx, 'startTime') ?? ctx.now - defaultSpanMs, endTime: num(ctx, 'endTime') ?? ctx.now };
}

export function pageOf<T>(ctx: HandlerContext, rows: T[]): T[] {
  const offset = num(ctx, 'offset') ?? 0;
  return rows.slice(offset, offset + (num(ctx, 'limit') ?? 1000));
}

export function statusesOf(ctx: HandlerContext): number[] | undefined {
  const one = num(ctx, 'status');
  if (one !== undefined) return [one];
  const list = str(ctx, 'statuses');
  return list === undefined ? undefined : list.split(',').map(Number);
}

export const walletHandlers = defineHandlers({
  'wallet.coinConfig': coinConfigHandler,

  'wallet.depositAddress': (ctx) => {
    const { asset, net } = requireNetwork(ctx.sandbox.config, String(ctx.params['coin']), String(ctx.params['network']));
    if (!net.depositEnable) throw new VenueError(-1010, `Deposits of ${asset.coin} on ${net.network} are suspended.`);
    return { coin: asset.coin, ...depositAddressFor(accountOf(ctx), asset.coin, net) };
  },

  'wallet.withdraw': (ctx) => {
    const req = {
      coin: String(ctx.params['coin']),
      network: String(ctx.params['network']),
      address: String(ctx.params['address']),
      addressTag: str(ctx, 'addressTag'),
      amount: String(ctx.params['amount']),
      withdrawOrderId: str(ctx, 'withdrawOrderId'),
    };
    return { id: walletOf(ctx.sandbox).withdrawals.apply(accountOf(ctx), req, ctx.now).id };
  },

  'wallet.depositHistory': (ctx) => {
    const rows = walletOf(ctx.sandbox).deposits.list(accountOf(ctx), {
      coin: str(ctx, 'coin'),
      txId: str(ctx, 'txId'),
      statuses: statusesOf(ctx),
      ...walletWindow(ctx, 90 * DAY_MS),
    });
    return pageOf(ctx, rows).map(depositWire);
  },

  'wallet.withdrawHistory': (ctx) => {
    const withdrawOrderId = str(ctx, 'withdrawOrderId');
    const rows = walletOf(ctx.sandbox).withdrawals.list(
      accountOf(ctx),
      { coin: str(ctx, 'coin'), withdrawOrderId, status: num(ctx, 'status'), ...walletWindow(ctx, (withdrawOrderId === undefined ? 90 : 7) * DAY_MS) },
      ctx.now,
    );
    return pageOf(ctx, rows).map(withdrawalWire);
  },

  'wallet.withdrawAddressWhitelist': (ctx) =>
    walletOf(ctx.sandbox)
      .whitelist.list(accountOf(ctx), { coin: str(ctx, 'coin'), network: str(ctx, 'network'), address: str(ctx, 'address') })
      .map(whitelistWire),
});
