/**
 * Times as people type and read them on the command line: `2024-03-01`, `2024-03-01T12:00`,
 * `2024-03-01T12:00:00+08:00`, or epoch ms. A date or time without a zone is UTC, like the klines.
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_NO_ZONE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;
const DATETIME_ZONE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Epoch ms of `text`, or undefined when it is none of the accepted forms (or not a real date). */
export function parseTimeText(text: string): number | undefined {
  const t = text.trim();
  let ms: number;
  if (/^\d{13}$/.test(t)) return Number(t);
  if (DATE.test(t)) ms = Date.parse(`${t}T00:00:00Z`);
  else if (DATETIME_NO_ZONE.test(t)) ms = Date.parse(`${t.replace(' ', 'T')}Z`);
  else if (DATETIME_ZONE.test(t)) ms = Date.parse(t.replace(' ', 'T'));
  else return undefined;
  if (!Number.isFinite(ms)) return undefined;
  // Date.parse rolls 2024-02-31 over to March, and 24:00 over to the next day, with a zone as
  // without one: refuse a written day that is not on the calendar, and hour 24.
  if (!isCalendarDay(t.slice(0, 10)) || Number(t.slice(11, 13)) > 23) return undefined;
  return ms;
}

/** `YYYY-MM-DD` names a day that exists (not 2024-02-30, not month 13). */
function isCalendarDay(day: string): boolean {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10) === day;
}

/**
 * Why `text` is not a time, for a message: the accepted forms, and for 9 to 11 digits that it
 * reads as epoch seconds (a Unix timestamp), which is not taken for ms.
 */
export function notATimeReason(text: string): string {
  const forms = '2024-03-01, 2024-03-01T12:00, 2024-03-01T12:00+08:00 or epoch ms';
  const t = text.trim();
  return /^\d{9,11}$/.test(t) ? `${forms}; ${t} looks like epoch seconds: in ms that is ${t}000` : forms;
}

/** `2024-03-01T00:00Z` style: minutes resolution unless seconds or ms are non-zero. */
export function formatTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  if (iso.endsWith(':00.000Z')) return `${iso.slice(0, 16)}Z`;
  if (iso.endsWith('.000Z')) return `${iso.slice(0, 19)}Z`;
  return iso;
}
