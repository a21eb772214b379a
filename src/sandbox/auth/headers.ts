/** Header access for the auth schemes: names are case-insensitive (node lower-cases them). */
import type { HeaderMap } from '../http/route-types.ts';

export function header(headers: HeaderMap, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  const first = Array.isArray(v) ? v[0] : v;
  return first === undefined || first === '' ? undefined : first;
}

/** `::ffff:127.0.0.1` (IPv4 on a dual-stack socket) is 127.0.0.1. */
export function normaliseIp(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}
