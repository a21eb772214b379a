/**
 * Coin configuration (spec 2.8, 4.2 `config/getall`; notes 6 extras) from the sandbox config's
 * assets and networks, with the caller's free/locked balances, plus the lookups the other wallet
 * and transfer handlers share.
 *
 * `transferPrecision` (notes 6; meaning not documented) is read as the decimals an account-to-account
 * transfer may carry: the finest network `withdrawIntegerMultiple`, else 8 (crypto) or 2 (fiat);
 * `transferMinQuantity` is one unit of that precision. Transfers enforce both.
 */
import { dec, toWire } from '../../../core/money/decimal.ts';
import type { SandboxAssetConfig, SandboxConfig } from '../../config/schema.ts';
import { venueErrors, type HandlerContext } from '../../http/route-types.ts';

export type NetworkConfig = SandboxAssetConfig['networks'][number];

export function findCoin(config: SandboxConfig, coin: string): SandboxAssetConfig | undefined {
  const c = coin.toUpperCase();
  return config.assets.find((a) => a.coin === c);
}

/** The coin and network, or -1025 naming the parameter that is unknown. */
export function requireNetwork(config: SandboxConfig, coin: string, network: string): { asset: SandboxAssetConfig; net: NetworkConfig } {
  const asset = findCoin(config, coin);
  if (!asset) throw venueErrors.invalidParam('coin', `unknown coin ${coin}`);
  const net = asset.networks.find((n) => n.network === network.toUpperCase());
  if (!net) throw venueErrors.invalidParam('network', `${asset.coin} has no network ${network}; use one of the coin configuration`);
  return { asset, net };
}

export function transferPrecision(asset: SandboxAssetConfig): number {
  const places = asset.networks.map((n) => dec(n.withdrawIntegerMultiple).decimalPlaces());
  return places.length > 0 ? Math.max(...places) : asset.legalMoney ? 2 : 8;
}

export function transferMinQuantity(asset: SandboxAssetConfig): string {
  return toWire(dec(1).dividedBy(dec(10).pow(transferPrecision(asset))));
}

export function coinConfigHandler(ctx: HandlerContext): unknown {
  const accountId = ctx.account?.id ?? '';
  const balances = ctx.sandbox.services.balances;
  return ctx.sandbox.config.assets.map((a) => {
    const b = balances?.get(accountId, a.coin) ?? { free: '0', locked: '0' };
    return {
      coin: a.coin,
      name: a.name,
      depositAllEnable: a.networks.some((n) => n.depositEnable),
      withdrawAllEnable: a.networks.some((n) => n.withdrawEnable),
      free: b.free,
      locked: b.locked,
      legalMoney: a.legalMoney,
      transferPrecision: String(transferPrecision(a)),
      transferMinQuantity: transferMinQuantity(a),
      networkList: a.networks.map((n) => ({
        addressRegex: n.addressRegex,
        memoRegex: n.memoRegex,
        network: n.network,
        name: n.name,
        depositEnable: n.depositEnable,
        minConfirm: n.minConfirm,
        unLockConfirm: n.unLockConfirm,
        withdrawDesc: n.withdrawDesc,
        withdrawEnable: n.withdrawEnable,
        withdrawFee: n.withdrawFee,
        withdrawIntegerMultiple: n.withdrawIntegerMultiple,
        withdrawMax: n.withdrawMax,
        withdrawMin: n.withdrawMin,
        sameAddress: n.sameAddress,
      })),
    };
  });
}
