/**
 * `--listen HOST:PORT` of `merchant receive`: an IPv4 address or a host name, or `[IPv6]`, and a
 * port 0..65535 (0: any free port, printed at start). Named reasons for what is not.
 */
import { isIP } from 'node:net';
import { UsageError } from '../../cli/errors.ts';

export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

export function listenAddress(flag: string, value: unknown): ListenAddress {
  if (value === undefined || String(value).trim() === '') throw new UsageError(`${flag} is required: the address to take callbacks on, such as 127.0.0.1:8787`);
  const t = String(value).trim();
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(t);
  if (!m) throw new UsageError(`${flag}: '${t}' is not HOST:PORT (such as 127.0.0.1:8787, or [::1]:8787)`);
  const host = (m[1] ?? m[2]) as string;
  const port = Number(m[3]);
  if (port > 65535) throw new UsageError(`${flag}: port ${port} is above 65535`);
  if (m[1] !== undefined && isIP(host) !== 6) throw new UsageError(`${flag}: '${host}' is not an IPv6 address`);
  if (m[2] !== undefined && /^[\d.]+$/.test(host) && isIP(host) !== 4) throw new UsageError(`${flag}: '${host}' is not an IPv4 address`);
  if (m[2] !== undefined && !/^[A-Za-z0-9.-]+$/.test(host)) throw new UsageError(`${flag}: '${host}' is not a host name`);
  return { host, port };
}
