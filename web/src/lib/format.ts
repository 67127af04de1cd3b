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

/**
 * The spec shows dates as the first 24 characters of the JavaScript date string
 * ("Mon Jan 15 2024 10:30:00"), 15 or 16 in some lists.
 */
export function formatDate(value: string | number | Date | null | undefined, length = 24): string {
  if (value === null || value === undefined || value === '') return '_';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return d.toString().slice(0, length);
}
