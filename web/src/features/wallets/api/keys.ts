// Query keys of the wallets feature: every query and invalidation of it goes through here.
import type { WalletFilter } from '@/lib/wallet-filter';
import type { WalletOwner } from './types';

export const walletsKeys = {
  all: ['wallets'] as const,
  balances: () => [...walletsKeys.all, 'balances'] as const,
  /** The signed-in partner's own two wallets (top bar, alerts). */
  myBalances: () => [...walletsKeys.balances(), 'me'] as const,
  ownerBalances: (owner: WalletOwner) => [...walletsKeys.balances(), owner.scope, owner.id] as const,
  entries: () => [...walletsKeys.all, 'entries'] as const,
  myEntries: (page: number, filter: WalletFilter = {}) => [...walletsKeys.entries(), 'me', { page, ...filter }] as const,
  ownerEntries: (owner: WalletOwner) => [...walletsKeys.entries(), owner.scope, owner.id] as const,
  ownerEntriesPage: (owner: WalletOwner, page: number) => [...walletsKeys.ownerEntries(owner), { page }] as const,
  /** Every partner wallet's movements (super admin). */
  allEntries: () => [...walletsKeys.entries(), 'all'] as const,
  allEntriesPage: (page: number, filter: WalletFilter = {}) => [...walletsKeys.allEntries(), { page, ...filter }] as const,
};
