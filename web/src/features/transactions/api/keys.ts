// Query keys of the transactions feature: every query and invalidation of it goes through here.
import type { PartnerFilter } from '@/lib/partner-filter';

export const transactionsKeys = {
  all: ['transactions'] as const,
  user: (userId: number) => [...transactionsKeys.all, 'user', userId] as const,
  userPage: (userId: number, kind: 'api' | 'product', page: number) =>
    [...transactionsKeys.user(userId), kind, { page }] as const,
  ledger: (userId: number, kind: 'api' | 'product', page: number) =>
    [...transactionsKeys.user(userId), 'ledger', kind, { page }] as const,
  partner: () => [...transactionsKeys.all, 'partner'] as const,
  partnerList: (list: string, filter: PartnerFilter, page: number) => [...transactionsKeys.partner(), list, { ...filter, page }] as const,
};
