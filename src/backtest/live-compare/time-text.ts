/** Fill times to the millisecond (`2026-01-05 00:16:00.250 UTC`): live and replay fills are often the same minute apart by milliseconds. */
export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)} UTC`;
}
