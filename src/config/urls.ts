/**
 * Exchange addresses: the REST base URL must be http: or https: (anything else, ftp: say, would
 * only fail later as a network error, retried), the WebSocket URL ws: or wss:. Used by the config
 * schema (exchange.baseUrl, exchange.wsUrl), the sandbox's (publicUrl, merchant.callbackUrl) and the
 * CLI's --base-url / HALYARD_BASE_URL.
 */
import { z } from 'zod';

const EXAMPLE = { http: 'http://127.0.0.1:8080', ws: 'ws://127.0.0.1:8080' } as const;

/** Why `value` cannot be an exchange's REST base URL, or undefined when it can. */
export function httpUrlProblem(value: string): string | undefined {
  return urlProblem(value, 'http');
}

function urlProblem(value: string, kind: 'http' | 'ws'): string | undefined {
  const allowed = kind === 'http' ? ['http:', 'https:'] : ['ws:', 'wss:'];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `'${value}' is not a URL (expected e.g. ${EXAMPLE[kind]})`;
  }
  if (!allowed.includes(url.protocol)) {
    return `'${value}' uses ${url.protocol}; only ${allowed.join(' and ')} are supported (e.g. ${EXAMPLE[kind]})`;
  }
  return undefined;
}

function urlSchema(kind: 'http' | 'ws') {
  return z.string().superRefine((value, ctx) => {
    const problem = urlProblem(value, kind);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });
}

/** An http: or https: URL. */
export const httpUrlSchema = urlSchema('http');
/** A ws: or wss: URL. */
export const wsUrlSchema = urlSchema('ws');
