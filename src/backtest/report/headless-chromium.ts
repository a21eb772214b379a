/**
 * Finding and starting a headless Chromium for the report test and the screenshot script.
 * The binary is Debian's `chromium` package (or CHROMIUM_PATH); it is driven by playwright-core
 * (a devDependency: no browser download, only the protocol client), imported lazily so nothing
 * else pays for it.
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/** CHROMIUM_PATH when set and present, else /usr/bin/chromium when present, else undefined. */
export function findChromium(env: Record<string, string | undefined> = process.env, fallback: string = DEFAULT_CHROMIUM): string | undefined {
  const fromEnv = env['CHROMIUM_PATH'];
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  return existsSync(fallback) ? fallback : undefined;
}

export async function launchChromium(executablePath: string): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS] });
}
