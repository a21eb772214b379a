/**
 * Finding and starting a headless Chromium for the report test and the screenshot script.
 * The binary is Debian's `chromium` package (or CHROMIUM_PATH); it is driven by playwright-core
 * (a devDependency: no browser download, only the protocol client), imported lazily so nothing
 * else pays for it.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';

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

/** A report page opened from its file, with what went wrong on it: console errors, page errors, and any request that left the file (a report must open offline). */
export interface OpenedReport {
  readonly page: Page;
  readonly errors: string[];
  readonly requests: string[];
}

/** Open a report file in a new page and wait until its script says it is drawn (`body[data-ready="true"]`). */
export async function openReport(browser: Browser, file: string): Promise<OpenedReport> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url());
  });
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
  return { page, errors, requests };
}
