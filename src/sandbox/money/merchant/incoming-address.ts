/**
 * `incoming_address` of an invoice (spec 2.13): empty for fiat (legal money or an asset without
 * networks); for a crypto asset a deterministic per-invoice address on the asset's first network,
 * shaped to pass that network's `addressRegex` (EVM `0x` + 40 hex, bech32 `bc1q...`, Tron `T...`),
 * else an opaque `sbx` + hex text. The sandbox never watches these addresses: payments are
 * simulated by the admin route.
 */
import { createHash } from 'node:crypto';
import type { SandboxAssetConfig } from '../../config/schema.ts';

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function digits(seed: string, alphabet: string, length: number): string {
  const bytes = createHash('sha256').update(seed).digest();
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[(bytes[i % bytes.length] ?? 0) % alphabet.length] ?? alphabet[0];
  return out;
}

export function incomingAddress(asset: SandboxAssetConfig | undefined, invoiceId: string): string {
  const network = asset && !asset.legalMoney ? asset.networks[0] : undefined;
  if (!network) return '';
  const seed = `${network.network}:${invoiceId}`;
  const candidates = [
    `0x${createHash('sha256').update(seed).digest('hex').slice(0, 40)}`,
    `bc1q${digits(seed, BECH32, 38)}`,
    `T${digits(seed, BASE58, 33)}`,
  ];
  const regex = network.addressRegex === '' ? undefined : new RegExp(network.addressRegex);
  return candidates.find((c) => regex?.test(c)) ?? `sbx${createHash('sha256').update(seed).digest('hex').slice(0, 40)}`;
}
