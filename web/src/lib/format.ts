// Display helpers. Money arrives from the API as integer paise.

const rupeeFormat = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
const wholeRupeeFormat = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  maximumFractionDigits: 0,
});
const countFormat = new Intl.NumberFormat('en-IN');

/** ₹1,23,456.78 from 12345678 paise; null/undefined counts as zero. */
export function formatRupees(paise: number | null | undefined, opts: { whole?: boolean } = {}): string {
  const rupees = (paise ?? 0) / 100;
  return (opts.whole ? wholeRupeeFormat : rupeeFormat).format(rupees);
}

/** Indian digit grouping for counts: 1234567 -> 12,34,567. */
export function formatCount(n: number | null | undefined): string {
  return countFormat.format(n ?? 0);
}

/** The platform's one business day and clock: India's, whatever the browser's zone. */
export const IST_ZONE = 'Asia/Kolkata';

const istParts = new Intl.DateTimeFormat('en-US', {
  timeZone: IST_ZONE,
  weekday: 'short',
  month: 'short',
  day: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** The parts of an instant on India's clock. */
function inIst(d: Date): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of istParts.formatToParts(d)) out[p.type] = p.value;
  return out;
}

/**
 * The spec shows dates as the first 24 characters of the JavaScript date string
 * ("Mon Jan 15 2024 10:30:00"), 15 or 16 in some lists. Printed on India's clock with the zone
 * ("… 10:30:00 IST"), so a screen agrees with the filters and the exported files in any
 * browser.
 */
export function formatDate(value: string | number | Date | null | undefined, length = 24): string {
  if (value === null || value === undefined || value === '') return '_';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  const p = inIst(d);
  const text = `${p.weekday} ${p.month} ${p.day} ${p.year} ${p.hour}:${p.minute}:${p.second}`;
  return `${text.slice(0, length).trimEnd()} IST`;
}

/** The IST calendar day of an instant, `days` later, as YYYY-MM-DD (what date filters take). */
export function istDay(days = 0, from: Date = new Date()): string {
  const p = inIst(from);
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const d = new Date(Date.UTC(Number(p.year), months.indexOf(p.month), Number(p.day) + days));
  return d.toISOString().slice(0, 10);
}
