// The filter panel of the wallet-transaction lists (My Transactions' Wallet transactions, the
// super admin's Wallet Transactions): Wallet, Type and the IST days From and To, which the
// API takes as kind, type, from and to; the super admin's list also takes a partner's User ID.
import type { FilterField } from './url-filter';

export const WALLET_FILTER_KEYS = ['kind', 'type', 'from', 'to'] as const;
export const ALL_WALLETS_FILTER_KEYS = ['user_id', ...WALLET_FILTER_KEYS] as const;
export type WalletFilterKey = (typeof ALL_WALLETS_FILTER_KEYS)[number];
type OwnKey = (typeof WALLET_FILTER_KEYS)[number];
export type WalletFilter = Partial<Record<WalletFilterKey, string>>;

export const walletFilterFields: FilterField<OwnKey>[] = [
  { key: 'kind', label: 'Wallet', options: [{ value: 'api', label: 'API Wallet' }, { value: 'product', label: 'Product Wallet' }] },
  { key: 'type', label: 'Type', options: [{ value: 'credit', label: 'Credit' }, { value: 'debit', label: 'Debit' }] },
  { key: 'from', label: 'From', type: 'date' },
  { key: 'to', label: 'To', type: 'date' },
];

export const allWalletsFilterFields: FilterField<WalletFilterKey>[] = [{ key: 'user_id', label: 'User ID', numeric: true }, ...walletFilterFields];

export function checkWalletFilter<K extends WalletFilterKey>(f: Partial<Record<K, string>> & WalletFilter): Partial<Record<K, string>> {
  const errors: WalletFilter = {};
  if (!/^\d*$/.test((f.user_id ?? '').trim())) errors.user_id = 'User ID contains only numeric values.';
  if (f.from && f.to && f.from > f.to) errors.from = 'From date cannot be after To date';
  return errors as Partial<Record<K, string>>;
}

/** The query string of a filter: blank fields left out. */
export function walletFilterParams(f: WalletFilter): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(f).map(([k, v]) => [k, (v ?? '').trim() || undefined]));
}
