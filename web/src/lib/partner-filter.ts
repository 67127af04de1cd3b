// The filter panel of the partner-wide lists (User Transactions, My Transactions): User ID,
// Email, PID, Services, Date. Shared by the transactions and logs features.
import type { FilterField } from './url-filter';

export const PARTNER_FILTER_KEYS = ['user_id', 'email', 'pid', 'services', 'date', 'status_code'] as const;
export type PartnerFilterKey = (typeof PARTNER_FILTER_KEYS)[number];
export type PartnerFilter = Record<PartnerFilterKey, string>;

export const partnerFilterFields: FilterField<PartnerFilterKey>[] = [
  { key: 'user_id', label: 'User ID', numeric: true },
  { key: 'email', label: 'Email' },
  { key: 'pid', label: 'PID' },
  { key: 'services', label: 'Services' },
  { key: 'date', label: 'Date', type: 'date' },
];

/** The API logs' panel: the same fields and the answer's Status Code. */
export const partnerLogFilterFields: FilterField<PartnerFilterKey>[] = [...partnerFilterFields, { key: 'status_code', label: 'Status Code', numeric: true }];

export function checkPartnerFilter(f: PartnerFilter): Partial<PartnerFilter> {
  if (!/^\d*$/.test(f.user_id.trim())) return { user_id: 'User ID contains only numeric values.' };
  if (!/^(\d{3})?$/.test((f.status_code ?? '').trim())) return { status_code: 'Status code is a number from 100 to 599.' };
  return {};
}

/** The query string of a filter: blank fields left out; the one Date is that whole day. */
export function partnerFilterParams(f: PartnerFilter): Record<string, string | undefined> {
  const v = (s: string) => s.trim() || undefined;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(f.date) ? f.date : undefined;
  return { user_id: v(f.user_id), email: v(f.email), pid: v(f.pid), services: v(f.services), from: date, to: date };
}
