/**
 * Deterministic deposit addresses (spec 2.8 deposit address, 4.2): the same account, coin and
 * network always get the same address, shaped like the chain's own (EVM hex, bech32, Tron and
 * XRP base58) and checked against the network's `addressRegex` when it has one. Networks with a
 * `memoRegex` need a memo: they get a 10-digit `addressTag` per account; others an empty tag.
 * Also makes chain transaction ids (64 hex) for deposits and withdrawals.
 */
import { createHash } from 'node:crypto';
import type { SandboxAssetConfig } from '../../config/schema.ts';

type NetworkConfig = SandboxAssetConfig['networks'][number];

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function bytes(seed: string): Buffer {
  return createHash('sha512').update(seed).digest();
}

function pick(seed: string, alphabet: string, n: number): string {
  const b = bytes(seed);
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet[(b[i % b.length] ?? 0) % alphabet.length];
  return out;
}

const SHAPES = {
  evm: (s: string) => `0x${bytes(s).toString('hex').slice(0, 40)}`,
  btc: (s: string) => `bc1q${pick(s, BECH32, 38)}`,
  tron: (s: string) => `T${pick(s, BASE58, 33)}`,
  xrp: (s: string) => `r${pick(s, BASE58, 33)}`,
} as const;
type Shape = keyof typeof SHAPES;

function preferred(network: string): Shape[] {
  const first: Shape = network === 'BTC' ? 'btc' : network === 'TRX' ? 'tron' : network === 'XRP' ? 'xrp' : 'evm';
  return [first, ...(Object.keys(SHAPES) as Shape[]).filter((k) => k !== first)];
}

export function needsMemo(network: NetworkConfig): boolean {
  return network.memoRegex !== '';
}

export function depositAddressFor(accountId: string, coin: string, network: NetworkConfig): { address: string; addressTag: string } {
  const seed = `${accountId}|${coin}|${network.network}`;
  const regex = network.addressRegex ? new RegExp(network.addressRegex) : undefined;
  const shapes = preferred(network.network);
  const shape = shapes.find((k) => !regex || regex.test(SHAPES[k](seed))) ?? shapes[0] ?? 'evm';
  const digits = pick(`${seed}|memo`, '0123456789', 10).replace(/^0/, '1');
  return { address: SHAPES[shape](seed), addressTag: needsMemo(network) ? digits : '' };
}

/** A 64-hex chain transaction id derived from a record id (stable across reads). */
export function chainTxId(recordId: string): string {
  return createHash('sha256').update(`sandbox-tx|${recordId}`).digest('hex');
}
