/**
 * Spec 4.9 sub-account deposit address and deposit history (master only), served from the
 * wallet's own deposit book and address scheme (money/wallet: `walletOf`, `depositAddressFor`), so
 * a sub-account's deposits are exactly the wallet deposits credited to its UID (created with the
 * admin API `POST /deposits {email|accountId, ...}`). Rule 4: the wallet deposit history's window
 * (startTime default 90 days before now, endTime default now; both sent: under 90 days, checked
 * before the handler) and its offset/limit paging, oldest first.
 */
import { VenueError, defineHandlers } from '../../http/route-types.ts';
import { depositAddressFor } from '../wallet/addresses.ts';
import { requireNetwork } from '../wallet/coins.ts';
import { depositWire } from '../wallet/deposits.ts';
import { walletOf } from '../wallet/wallet-service.ts';
import { pageOf, walletWindow } from '../wallet/wallet-handlers.ts';
import { param, requireMaster, subOf } from './access.ts';

const DAY_MS = 86_400_000;

export const depositHandlers = defineHandlers({
  'subAccount.depositAddress': (ctx) => {
    const sub = subOf(ctx, requireMaster(ctx), String(ctx.params['email']));
    const { asset, net } = requireNetwork(ctx.sandbox.config, String(ctx.params['coin']), String(ctx.params['network']));
    if (!net.depositEnable) throw new VenueError(-1010, `Deposits of ${asset.coin} on ${net.network} are suspended.`);
    return { coin: asset.coin, ...depositAddressFor(sub.id, asset.coin, net) };
  },

  'subAccount.depositHistory': (ctx) => {
    const sub = subOf(ctx, requireMaster(ctx), String(ctx.params['email']));
    const status = param<number>(ctx, 'status');
    const rows = walletOf(ctx.sandbox).deposits.list(sub.id, {
      coin: param<string>(ctx, 'coin'),
      txId: param<string>(ctx, 'txId'),
      depositId: param<string>(ctx, 'depositId'),
      statuses: status === undefined ? undefined : [status],
      ...walletWindow(ctx, 90 * DAY_MS),
    });
    return pageOf(ctx, rows).map(depositWire);
  },
});
