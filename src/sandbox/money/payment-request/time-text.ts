/**
 * The time notation of payment requests, invoices and fiat history (spec 4.3 `expires_at`, 4.10
 * `expires_at`, 4.8 `startDate`/`endDate`): an ISO 8601 datetime, or a delta in w/d/h/m/s units
 * (`1w`, `3d`, `2h`, `32m`, `5s`; fiat writes a combined `1w 3d 2h 32m 5s`). The params layer has
 * already checked the text against TIME_TEXT_PATTERN; this turns it into sandbox milliseconds.
 *
 * A delta points forward for expiries (now + delta) and backward for history bounds (now - delta).
 * An ISO text without a zone is read as UTC (the spec writes "ISO 8601 UTC"); fractions beyond
 * milliseconds (`.000000Z` in the spec's samples) are cut, since Date.parse refuses some of them.
 */

const UNIT_MS: Readonly<Record<string, number>> = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000 };

export type TimeText = { kind: 'delta'; ms: number } | { kind: 'instant'; time: number };

export function parseTimeText(text: string): TimeText | undefined {
  const t = text.trim();
  if (/^\d+[wdhms]( ?\d+[wdhms])*$/.test(t)) {
    let ms = 0;
    for (const m of t.matchAll(/(\d+)([wdhms])/g)) ms += Number(m[1]) * (UNIT_MS[m[2] ?? 's'] ?? 0);
    return { kind: 'delta', ms };
  }
  const iso = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(:\d{2})?(\.\d+)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/.exec(t);
  if (!iso) return undefined;
  const [, date, hm, sec, frac, zone] = iso;
  if (!realCalendarTime(date ?? '', hm, sec)) return undefined;
  const zoneText = zone === undefined || zone === 'Z' ? 'Z' : zone.length === 3 ? `${zone}:00` : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const time = Date.parse(`${date}T${hm ?? '00:00'}${sec ?? ':00'}${(frac ?? '.000').slice(0, 4).padEnd(4, '0')}${zoneText}`);
  return Number.isNaN(time) ? undefined : { kind: 'instant', time };
}

/**
 * Whether the fields name a real day and time of day: Date.parse rolls `2025-02-30` over into
 * March 2 and reads `24:00` as the next midnight, so a mistyped date would become another one
 * instead of the clear refusal a client needs.
 */
function realCalendarTime(date: string, hm: string | undefined, sec: string | undefined): boolean {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return false;
  const [h, mi] = (hm ?? '00:00').split(':').map(Number) as [number, number];
  const s = Number((sec ?? ':00').slice(1));
  return h <= 23 && mi <= 59 && s <= 59;
}

/** An expiry: a delta counts forward from `now`. */
export function futureTime(text: string, now: number): number | undefined {
  const t = parseTimeText(text);
  if (t === undefined) return undefined;
  return t.kind === 'delta' ? now + t.ms : t.time;
}

/** A history bound: a delta counts backward from `now`. */
export function pastTime(text: string, now: number): number | undefined {
  const t = parseTimeText(text);
  if (t === undefined) return undefined;
  return t.kind === 'delta' ? now - t.ms : t.time;
}
