/**
 * The absolute URLs a merchant or legacy-v4 caller may have signed (protocol notes 2.3-2.4: the
 * host is part of the message). The configured public URL first, then the `Host` header with
 * http and https. Queries and bodies are tried raw and percent-decoded (callers sign the
 * "unencoded" text but send it encoded).
 */
import { percentDecodeBytes } from '../../exchange/signing/query-signing.ts';

export function signedUrlBases(publicUrl: string | undefined, host: string | undefined): string[] {
  const bases: string[] = [];
  if (publicUrl !== undefined) bases.push(publicUrl.replace(/\/+$/, ''));
  if (host !== undefined) bases.push(`http://${host}`, `https://${host}`);
  return [...new Set(bases)];
}

/** The text itself and its percent-decoded form, without duplicates. */
export function rawAndDecoded(text: string): string[] {
  const decoded = percentDecodeBytes(text).toString('utf8');
  return decoded === text ? [text] : [text, decoded];
}
